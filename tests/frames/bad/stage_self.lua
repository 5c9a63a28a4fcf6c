kernel "scale" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i);" }
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "f" } } }
