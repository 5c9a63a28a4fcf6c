module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256,
  params = { { "x", "f32[n][256][2]", access = "inout" }, { "e", "f32[1]", access = "out" } },
  input = "x", output = "x", into = "e",
  post = "re *= 2;" }
