-- frame_bench.lua: the workload of bench/frame_bench.c - S = 1, 2, 4, 8
-- dependent stages of y = 0.5 y + x as frames (one handshake per frame),
-- and the same kernel for classic launches and CUDA graphs.
module { name = "frame_bench", targets = { "cuda" } }

kernel "step" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = 0.5f * y(i) + x(i);" }

local cmds = {}
for _, s in ipairs { 1, 2, 4, 8 } do
  local st = {}
  for i = 1, s do st[i] = { "step" } end
  frame ("s" .. s) { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = st }
  cmds[#cmds + 1] = "s" .. s
end

-- the whole GPU (the bench sets blocks at run time: 16, 132, 264) and one block
persistent "whole" { layout = "many_blocks", block = 256, commands = cmds }
persistent "one" { layout = "one_block", block = 1024, commands = cmds }
