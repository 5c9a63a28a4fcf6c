kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
kernel "sum" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
kernel "fixed" { pattern = "for", range = { 1024 },
  params = { { "w", "f32[1024]", access = "inout" } }, body = "w(i) += 1.0f;" }
kernel "coop" { pattern = "reduce", range = { "n" }, strategy = "grid_sync",
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
kernel "team1k" { pattern = "team", league = 1, team_size = 1024,
  params = { { "w", "f32[1024]", access = "inout" } }, body = "w(team_rank) += 1.0f;" }
kernel "tree" { pattern = "reduce", range = { "n" }, block = 256, strategy = "shared_tree",
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
persistent "p" { commands = { "scale" } }
frame "f" { params = { { "gain", "f32" }, { "x", "f32[n]", access = "out" }, { "y", "f32[n]" } },
  stages = { { "scale" } } }
