-- A persistent kernel without `block`: the largest block of its commands
-- (the reduction's 1024), but no more than a command's body works with:
-- the frame's scan keeps its tile in shared memory sized for 256 threads,
-- so the kernel gets 256 (gpugen explain auto_block.lua p).
kernel "total" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i) * v(i)", into = "e" }
kernel "csum" { pattern = "scan", kind = "exclusive", range = { "n" },
  params = { { "v", "f32[n]" }, { "w", "f32[n]", access = "out" } }, value = "v(i)", into = "w" }
frame "step" { params = { { "v", "f32[n]" }, { "w", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "csum" }, { "total", v = "w" } } }
persistent "p" { layout = "many_blocks", commands = { "step", "total" } }
