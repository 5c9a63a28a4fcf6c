-- max belongs to a view in the slot
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
frame "f" { params = { { "gain", "f32" }, { "x", "f32[n]", max = 10 }, { "y", "f32[n]" } },
  stages = { { "scale" } } }
