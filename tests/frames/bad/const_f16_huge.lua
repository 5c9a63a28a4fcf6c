kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f16" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = (float)gain * x(i);" }
-- an f16 holds at most 65504
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "scale", gain = -70000 } } }
