-- gpugen explain of a frame on 3 GPUs (tests/nvshmem/CMakeLists.txt):
-- what the allreduce moves and waits for, and the grid barriers the
-- schedule puts before and after it.
module { name = "explain3", targets = { "cuda" } }
kernel "fill" { pattern = "for", range = { 37 },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[37]", access = "out" } },
  body = "e(i) = x(i);" }
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" }, { "e", "f32[37]", access = "in" } },
  body = "x(i) = x(i) * e(i % 37);" }
frame "f" {
  gpus = 3,
  params = { { "x", "f32[n]" }, { "e", "f32[37]" } },
  stages = {
    { "fill" },
    { exchange = "allreduce", view = "e", op = "max" },
    { "scale" },
  },
}
-- a frame on one GPU beside it: no exchange, no symmetric memory of its own
frame "one" { params = { { "x", "f32[n]" }, { "e", "f32[37]" } }, stages = { { "fill" } } }
persistent "p" { layout = "many_blocks", commands = { "one", "f" } }
-- frames on different GPU counts cannot share a persistent kernel
frame "h" {
  gpus = 2,
  params = { { "x", "f32[n]" }, { "e", "f32[37]" } },
  stages = { { "fill" }, { exchange = "allreduce", view = "e", op = "sum" } },
}
