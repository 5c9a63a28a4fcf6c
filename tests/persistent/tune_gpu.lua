-- tune_gpu.lua - the module of test_tune_gpu.c: one frame ("step": y =
-- a x + 1, then e = sum of y) that two persistent kernels run, one block
-- and the whole GPU, so gg_session_tune has candidates of both kinds.
module { name = "tune_gpu", targets = { "cuda" } }

kernel "axpb" {
  pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = a * x(i) + 1.0f;",
}

kernel "total" {
  pattern = "reduce", op = "sum", range = { "n" },
  params = { { "y", "f32[n]", access = "in" }, { "e", "f32[1]", access = "out" } },
  value = "y(i)", into = "e",
}

frame "step" {
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "axpb" }, { "total" } },
}

persistent "one" { layout = "one_block", block = 256, commands = { "step" } }
persistent "whole" { layout = "many_blocks", block = 256, commands = { "step" } }
