module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64,
  direction = "backward",
  params = { { "x", "f32[64][2]" }, { "y", "f32[64][2]", access = "out" } },
  input = "x", output = "y" }
