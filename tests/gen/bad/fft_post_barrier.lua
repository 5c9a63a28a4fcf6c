module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 16, type = "r2c",
  params = { { "x", "f32[nb][16]" }, { "y", "f32[nb][9][2]", access = "out" } },
  input = "x", output = "y",
  between = nil,
  post = "__syncthreads(); re = 1;" }
