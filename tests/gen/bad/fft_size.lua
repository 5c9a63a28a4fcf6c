module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 1001,
  params = { { "x", "f32[nb][1001][2]" }, { "y", "f32[nb][1001][2]", access = "out" } },
  input = "x", output = "y" }
