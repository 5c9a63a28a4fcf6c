module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256, block = "auto",
  params = { { "x", "f32[nb][256][2]", access = "inout" } }, input = "x", output = "x" }
frame "fr" { params = { { "x", "f32[nb][256][2]" } }, stages = { { "f" } } }
kernel "Fr_threads64" { pattern = "for", range = { 4 },
  params = { { "y", "f32[4]", access = "out" } }, body = "y(i) = 0.0f;" }
persistent "p" { layout = "many_blocks", commands = { "fr" } }
