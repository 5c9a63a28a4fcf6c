module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64, type = "r2r",
  params = { { "x", "f32[64]" }, { "y", "f32[64]", access = "out" } },
  input = "x", output = "y" }
