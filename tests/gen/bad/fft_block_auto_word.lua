module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256,
  block = "fast",
  params = { { "x", "f32[nb][256][2]", access = "inout" } }, input = "x", output = "x" }
