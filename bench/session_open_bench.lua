-- session_open_bench: what a session costs to open and to end, besides
-- its frames (bench/session_open_bench.c): a persistent kernel of one
-- block and one of many, each running one small frame.
module { name = "session_open_bench", targets = { "cuda", "hip" } }
kernel "axpb" {
  pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = a * x(i) + 1.0f;",
}
frame "step" {
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "axpb" } },
}
persistent "one" { layout = "one_block", block = 256, commands = { "step" } }
persistent "whole" { layout = "many_blocks", block = 256, commands = { "step" } }
