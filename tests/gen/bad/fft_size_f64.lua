module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 16384,
  params = { { "x", "f64[16384][2]" }, { "y", "f64[16384][2]", access = "out" } },
  input = "x", output = "y" }
