module { name = "m", targets = { "cuda" } }
kernel "fill" { pattern = "for", range = { 32769 },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[524289]", access = "out" } },
  body = "e(i) = x(i);" }
frame "f" { gpus = 2, params = { { "x", "f32[n]" }, { "e", "f32[524289]" } },
  stages = { { "fill" }, { exchange = "allgather", view = "e" } } }
