module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 320, type = "r2c",
  params = { { "x", "f32[nb][320]" },
    { "y", "f32[nb][160][2]", access = "out" } },
  input = "x", output = "y" }
