module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft",
  size = 40000,
  params = { { "x", "f32[n][40000][2]", access = "inout" } }, input = "x", output = "x" }
