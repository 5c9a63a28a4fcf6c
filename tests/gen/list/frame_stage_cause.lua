-- A frame command whose team stage (team_size 32) cannot run on the
-- persistent kernel's 1024-thread block: the message names the stage,
-- not only the frame.
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } }, body = "x(i) *= 2.0f;" }
kernel "rows" { pattern = "team", league = "n", team_size = 32,
  params = { { "x", "f32[n]" }, { "s", "f32[n]", access = "out" } },
  body = "if (team_rank == 0) s(league_rank) = x(league_rank);" }
frame "f" { params = { { "x", "f32[n]" }, { "s", "f32[n]" } },
  stages = { { "scale" }, { "rows" } } }
persistent "p" { layout = "one_block", block = 1024, commands = { "f" } }
