kernel "k" { pattern = "for", range = { "n" },
  params = { { "a", "i64" }, { "h", "f16" }, { "w", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = (float)a + (float)h + w * x(i);" }
-- 2.5 is no integer
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "k", a = 2.5, h = 1, w = 1 } } }
