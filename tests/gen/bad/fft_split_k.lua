module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256,
  params = { { "x", "f32[n][256][2]", access = "inout" } }, input = "x", output = "x",
  split_k = 2 }
