module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256, block = 32,
  params = { { "x", "f32[nb][256][2]", access = "inout" }, { "e", "f64[1]", access = "out" } },
  input = "x", output = "x", into = "e",
  post = "re -= x(item, 0, 0); contribute(re);" }
