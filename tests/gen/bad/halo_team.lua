module { name = "m" }
kernel "k" { pattern = "team", league = "n", team_size = 32,
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "if (team_rank == 0) y(league_rank) = x(league_rank);" }
