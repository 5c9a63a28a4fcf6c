-- app.lua - the workload of examples/app: each frame scales an input
-- signal and measures its energy.  Two kernels (the launch and graph
-- modes run them as two launches), one frame "step" that chains them
-- (scale, a grid barrier, energy: ONE host handshake per frame), and a
-- persistent kernel per layout that runs the frame, with double buffering
-- (two frame slots: the host prepares one while the GPU works on the other).
--
-- Where the buffers live is the app's choice at run time (--memory):
-- host-mapped (zero-copy, as in CuPer: the kernels read x and write y
-- across PCIe) or device arrays with explicit copies.  The generated code
-- is the same for both, so no `space` is declared here.

kernel "scale" {
  pattern = "for",
  range   = { "n" },
  params  = {
    { "gain", "f32" },
    { "x", "f32[n]", access = "in" },
    { "y", "f32[n]", access = "out" },
  },
  body = "y(i) = gain * x(i);",
}

kernel "energy" {
  pattern = "reduce",
  op      = "sum",
  range   = { "n" },
  params  = {
    { "y", "f32[n]", access = "in" },
    { "e", "f32[1]", access = "out" },
  },
  value = "y(i) * y(i)",
  into  = "e",
}

-- The app's frame: both kernels inside the persistent kernel, one
-- handshake for the whole frame where two commands cost two (measured on
-- an H100, n = 1000, mapped: 8.5 us p50 as two commands, one handshake
-- ~3.2 us).  energy reads y only at the index scale wrote it, over the
-- same range, so gpugen fuses them (`gpugen explain app.lua step`):
-- energy's fold runs scale's body at each index just before it reads
-- y(i), in the same thread - no barrier, and y's value comes from a
-- register instead of back across PCIe.
frame "step" {
  params = {
    { "gain", "f32" },
    { "x", "f32[n]" },
    { "y", "f32[n]" },
    { "e", "f32[1]" },
  },
  stages = { { "scale" }, { "energy" } },
}

-- --memory device: the frame keeps its state in device arrays and moves
-- the host's data itself, as stages, so a frame costs no copy API call:
-- "load" reads the input from host-mapped memory into a device array,
-- "store" writes y back, and e returns inside the frame's acknowledgement
-- (result = "e": gg_session_result).  One element per thread and step:
-- the layouts' blocks (1024 threads for one_block_1024) cover n = 1000 in
-- one step, so every read across the bus is in flight at once - one
-- round trip for the whole load.  (vector = 4 would not help here: the
-- for pattern tests the bound between a thread's four indices, and the
-- PTX nvcc 12 makes of it issues each load only after the previous
-- element's store.)
kernel "load" {
  pattern = "for", range = { "n" },
  params  = { { "src", "f32[n]", space = "mapped" }, { "dst", "f32[n]", access = "out" } },
  body    = "dst(i) = src(i);",
}
kernel "store" {
  pattern = "for", range = { "n" },
  params  = { { "src", "f32[n]" }, { "dst", "f32[n]", access = "out", space = "mapped" } },
  body    = "dst(i) = src(i);",
}

-- load, scale + energy, store: no barrier at all - scale reads x where
-- load wrote it, energy runs scale inside its fold (fused), store reads y
-- where scale wrote it, each in the same thread; yh is host memory the
-- host reads, so the acknowledgement keeps its release (gpugen explain
-- app.lua step_dev).
frame "step_dev" {
  params = {
    { "gain", "f32" },
    { "xh", "f32[n]", space = "mapped" },  -- the host's input
    { "x", "f32[n]" },                     -- device state
    { "y", "f32[n]" },
    { "yh", "f32[n]", space = "mapped" },  -- the host's copy of y
    { "e", "f32[1]" },                     -- device; returns in the ack
  },
  stages = {
    { "load", src = "xh", dst = "x" },
    { "scale" },
    { "energy" },
    { "store", src = "y", dst = "yh" },
  },
  result = "e",
}

-- One persistent kernel per layout (the layout decides the kernel's
-- shape, so it is fixed when the code is generated); the app's --layout
-- picks one at run time.
for _, layout in ipairs { "one_block", "many_blocks", "thread_groups", "hybrid" } do
  persistent ("frame_" .. layout) {
    layout    = layout,
    commands  = { "step", "step_dev" },
    buffering = "double",
  }
end

-- one_block with 1024 threads (--layout one_block_1024): the block size
-- left to gpugen is the commands' (256), so scale walks n = 1000 in four
-- grid-stride steps; over mapped memory each step is a dependent PCIe
-- read, where a classic launch spreads them over four blocks at once.
-- Measured on an H100 (2026-11-23, examples/app/gpu_measure.sh, n = 1000,
-- mapped, p50): one_block 17.5 us, one_block_1024 8.7 us, launch 17.5 us,
-- graph 14.2 us.  The app's default.
persistent "frame_one_block_1024" {
  layout    = "one_block",
  block     = 1024,
  commands  = { "step", "step_dev" },
  buffering = "double",
}
