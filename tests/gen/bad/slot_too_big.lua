-- 4097 floats: more than the slot's 16384 bytes
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
frame "f" { params = { { "gain", "f32" }, { "x", "f32[n]", space = "slot", max = 4097 }, { "y", "f32[n]" } },
  stages = { { "scale" } } }
