module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256,
  params = { { "x", "f32[nb][256][2]" }, { "y", "f32[nb][256][2]", access = "out" } },
  input = "x", output = "y" }
persistent "p" { layout = "many_blocks", block = 64, commands = { "f" } }
