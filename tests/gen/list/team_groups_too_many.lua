-- A team of 1024 threads needs a pseudo-block of 1024: two groups of it
-- would make a block of 2048, more than any GPU has.
kernel "big" { pattern = "team", league = 4, team_size = 1024,
  params = { { "x", "f32[8]", access = "inout" } }, body = "if (team_rank == 0) x(0) += 1;" }
persistent "p" { layout = "thread_groups", groups = 2, block = 1024, commands = { "big" } }
