-- app.lua - the workload of examples/app: each frame scales an input
-- signal and measures its energy.  Two kernels, and a persistent kernel
-- per layout that runs either of them per frame, with double buffering
-- (two frame slots: the host prepares one while the GPU works on the other).
--
-- The buffers live in host-mapped memory (zero-copy, as in CuPer): the
-- host writes x and reads y and e in place, with no copy calls.

kernel "scale" {
  pattern = "for",
  range   = { "n" },
  params  = {
    { "gain", "f32" },
    { "x", "f32[n]", access = "in",  space = "mapped" },
    { "y", "f32[n]", access = "out", space = "mapped" },
  },
  body = "y(i) = gain * x(i);",
}

kernel "energy" {
  pattern = "reduce",
  op      = "sum",
  range   = { "n" },
  params  = {
    { "y", "f32[n]", access = "in",  space = "mapped" },
    { "e", "f32[1]", access = "out", space = "mapped" },
  },
  value = "y(i) * y(i)",
  into  = "e",
}

-- One persistent kernel per layout (the layout decides the kernel's
-- shape, so it is fixed when the code is generated); the app's --layout
-- picks one at run time.
for _, layout in ipairs { "one_block", "many_blocks", "thread_groups", "hybrid" } do
  persistent ("frame_" .. layout) {
    layout    = layout,
    commands  = { "scale", "energy" },
    buffering = "double",
  }
end
