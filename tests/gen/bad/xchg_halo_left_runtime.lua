-- layout left: the outer index is the last, so a run-time extent may be only there
module { name = "m", targets = { "cuda" } }
kernel "fill" { pattern = "for", range = { "n", 16 },
  params = { { "v", "f32[n][16]", access = "out", layout = "left" } }, body = "v(i, j) = 1;" }
frame "fr" { gpus = 2, params = { { "v", "f32[n][16]", layout = "left" } },
  stages = { { "fill" }, { exchange = "halo", view = "v" }, { "fill" } } }
