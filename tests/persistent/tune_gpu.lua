-- tune_gpu.lua - the module of test_tune_gpu.c: one frame ("step": y =
-- a x + 1, then e = sum of y) that two persistent kernels run, one block
-- and the whole GPU, so gg_session_tune has candidates of both kinds;
-- "step_b" computes the same in another order, an alternative.
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

-- the same result the other way round: the sum first (of a x + 1, read
-- from x), then y; an alternative command for gg_session_tune
kernel "total_of" {
  pattern = "reduce", op = "sum", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]", access = "in" }, { "e", "f32[1]", access = "out" } },
  value = "a * x(i) + 1.0f", into = "e",
}
frame "step_b" {
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "total_of" }, { "axpb" } },
}

persistent "one" { layout = "one_block", block = 256, commands = { "step" } }
persistent "whole" { layout = "many_blocks", block = 256, commands = { "step", "step_b" } }
persistent "groups" { layout = "thread_groups", block = 512, groups = 2, commands = { "step_b" } }
