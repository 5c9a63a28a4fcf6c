-- Where a frame's ack may take its result from the note of the reduction
-- that stored it (gen/frame_schedule.c, result_noted; gpugen explain says so):
--   one: one reduce stage writes e: noted
--   two: a later reduction (into m) leaves its own note over e's: not noted
--   ft:  tile_reduce writes its output without a note: not noted
kernel "tsum" { pattern = "tile_reduce", range = { 16 }, tile = 16,
  params = { { "v", "f32[16]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
kernel "sum32" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
frame "one" { params = { { "x", "f32[n]" }, { "e", "f32[1]" } }, stages = { { "sum32", v = "x" } },
  result = "e" }
frame "two" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f32[1]" }, { "m", "f32[1]" } },
  stages = { { "sum32", v = "x" }, { "sum32", v = "y", e = "m" } }, result = "e" }
frame "ft" { params = { { "v", "f32[16]" }, { "e", "f32[1]" } }, stages = { { "tsum" } }, result = "e" }
persistent "p" { layout = "one_block", block = 256, commands = { "one", "two", "ft" } }
