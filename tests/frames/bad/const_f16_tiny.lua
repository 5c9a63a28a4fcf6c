kernel "k" { pattern = "for", range = { "n" },
  params = { { "a", "i64" }, { "h", "f16" }, { "w", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = (float)a + (float)h + w * x(i);" }
-- 1e-8 would be 0 in f16
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "k", a = 1, h = -1e-8, w = 1 } } }
