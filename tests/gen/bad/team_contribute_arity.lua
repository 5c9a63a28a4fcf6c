module { name = "m", targets = { "cuda" } }
kernel "t" { pattern = "team", league = "n", team_size = 32,
  params = { { "x", "f32[n][4]" }, { "e", "f64[1]", access = "out" } }, into = "e",
  body = [[
    contribute(f(1, 2), x(league_rank, 0));
  ]] }
