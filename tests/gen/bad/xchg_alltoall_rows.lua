module { name = "m", targets = { "cuda" } }
kernel "fill" { pattern = "for", range = { 5, 2 }, index = { "i", "j" },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[5][2]", access = "out" } },
  body = "e(i, j) = x(2 * i + j);" }
frame "f" { gpus = 2, params = { { "x", "f32[n]" }, { "e", "f32[5][2]" } },
  stages = { { "fill" }, { exchange = "alltoall", view = "e" } } }
