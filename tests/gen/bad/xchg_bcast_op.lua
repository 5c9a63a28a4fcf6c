module { name = "m", targets = { "cuda" } }
kernel "fill" { pattern = "for", range = { 4 },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[4]", access = "out" } },
  body = "e(i) = x(i);" }
frame "f" { gpus = 2, params = { { "x", "f32[n]" }, { "e", "f32[4]" } },
  stages = { { "fill" }, { exchange = "broadcast", view = "e", op = "sum" } } }
