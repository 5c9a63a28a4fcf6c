module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64,
  params = { { "x", "f16[64][2]" }, { "y", "f16[64][2]", access = "out" } },
  input = "x", output = "y" }
