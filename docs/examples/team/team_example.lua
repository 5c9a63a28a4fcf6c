-- team_example.lua - the two-GPU example of docs/multi-gpu.md (team_host.c):
-- each GPU doubles its own x, then an allreduce sums e over both GPUs,
-- inside one frame of a persistent kernel on each GPU.  n = 1000: not a
-- multiple of the warp, the block or the GPU count.
module { name = "team_example", targets = { "cuda" } }

kernel "twice" { pattern = "for", range = { 1000 },
  params = { { "x", "f32[1000]" }, { "e", "f32[1000]", access = "out" } },
  body = "e(i) = x(i) + x(i);" }

frame "total" { gpus = 2,
  params = { { "x", "f32[1000]" }, { "e", "f32[1000]" } },
  stages = { { "twice" }, { exchange = "allreduce", view = "e", op = "sum" } } }

-- one block: a small exchange's frame is fastest on few blocks
-- (docs/multi-gpu.md, "How many blocks")
persistent "team" { layout = "one_block", block = 256, commands = { "total" } }
