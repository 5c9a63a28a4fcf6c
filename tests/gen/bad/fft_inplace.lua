module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 64, type = "r2c",
  params = { { "x", "f32[64]", access = "inout" } },
  input = "x", output = "x" }
