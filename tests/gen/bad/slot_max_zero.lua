-- max is at least 1
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
frame "f" { params = { { "gain", "f32" }, { "x", "f32[n]", space = "slot", max = 0 }, { "y", "f32[n]" } },
  stages = { { "scale" } } }
