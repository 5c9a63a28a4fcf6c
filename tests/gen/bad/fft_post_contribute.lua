module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64,
  params = { { "x", "f32[nb][64][2]" }, { "y", "f32[nb][64][2]", access = "out" } },
  input = "x", output = "y",
  post = "contribute(re * re);" }
