-- Fine for cuda, refused for hip (a hip pseudo-block is one wavefront of
-- at most 32 threads): `gpugen list` checks every target the module has.
kernel "scale" {
  pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]", access = "inout" } },
  body = "x(i) = a * x(i);",
}
persistent "p" { layout = "thread_groups", block = 128, groups = 2, commands = { "scale" } }
