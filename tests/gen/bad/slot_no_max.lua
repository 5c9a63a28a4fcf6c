-- a run-time extent in the slot needs max: the slot is sized at generation
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
frame "f" { params = { { "gain", "f32" }, { "x", "f32[n]", space = "slot" }, { "y", "f32[n]" } },
  stages = { { "scale" } } }
