module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64, type = "r2c",
  params = { { "x", "f32[nb][64]" }, { "y", "f32[nb][33][2]", access = "out" } },
  input = "x", output = "y",
  between = "re = 0;" }
