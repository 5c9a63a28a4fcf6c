module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64, type = "r2c",
  direction = "inverse",
  params = { { "x", "f32[64]" }, { "y", "f32[33][2]", access = "out" } },
  input = "x", output = "y" }
