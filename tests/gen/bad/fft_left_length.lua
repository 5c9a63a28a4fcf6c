module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 1000, type = "c2r",
  params = { { "X", "f32[nb][501][2]", layout = "left" },
    { "y", "f32[nb][1001]", layout = "left", access = "out" } },
  input = "X", output = "y" }
