-- A persistent block smaller than a command's team: `gpugen list` must
-- refuse it with the persistent kernel's file:line, as emit does.
kernel "t" {
  pattern = "team", league = "n", team_size = 256,
  params = { { "x", "f32[n]", access = "inout" } },
  body = "x(league_rank) = 1.0f;",
}
persistent "p" { layout = "one_block", block = 128, commands = { "t" } }
