module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256, block = "auto",
  params = { { "x", "f32[nb][256][2]", access = "inout" } }, input = "x", output = "x" }
frame "fr" { params = { { "x", "f32[nb][256][2]" } }, stages = { { "f" } } }
frame "fr_threads64" { params = { { "x", "f32[nb][256][2]" } }, stages = { { "f" } } }
