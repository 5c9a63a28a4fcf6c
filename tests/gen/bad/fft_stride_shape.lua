module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 100,
  params = { { "x", "f64[nb][100]", layout = "stride" },
    { "y", "f64[nb][100][2]", access = "out" } },
  input = "x", output = "y" }
