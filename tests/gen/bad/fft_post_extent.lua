module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 16,
  params = { { "x", "f32[item][16][2]" }, { "y", "f32[item][16][2]", access = "out" } },
  input = "x", output = "y", post = "re = re * 2;" }
