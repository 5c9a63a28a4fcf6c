module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 16,
  params = { { "x", "f32[nb][16][2]" }, { "y", "f32[nb][16][2]", access = "out" }, { "e", "f64[2]", access = "out" } },
  input = "x", output = "y", into = "e",
  post = [[
    double a = re;
    contribute(a * (double)re);
  ]] }
