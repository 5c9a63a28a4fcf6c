kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
-- 1e300 is no f32: the literal would be infinity in the kernel
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "scale", gain = 1e300 } } }
