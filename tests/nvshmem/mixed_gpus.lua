-- Frames on different GPU counts in one persistent kernel: refused (its
-- session runs on one team).
module { name = "mixed_gpus", targets = { "cuda" } }
kernel "fill" { pattern = "for", range = { 37 },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[37]", access = "out" } },
  body = "e(i) = x(i);" }
frame "two" { gpus = 2, params = { { "x", "f32[n]" }, { "e", "f32[37]" } },
  stages = { { "fill" }, { exchange = "allreduce", view = "e", op = "sum" } } }
frame "three" { gpus = 3, params = { { "x", "f32[n]" }, { "e", "f32[37]" } },
  stages = { { "fill" }, { exchange = "allreduce", view = "e", op = "sum" } } }
persistent "p" { layout = "many_blocks", commands = { "two", "three" } }
