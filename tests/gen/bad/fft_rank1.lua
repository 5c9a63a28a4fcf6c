module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 320, type = "r2c",
  params = { { "sig", "f32[nb][320]" }, { "spec", "f32[n]", access = "out" } },
  input = "sig", output = "spec" }
