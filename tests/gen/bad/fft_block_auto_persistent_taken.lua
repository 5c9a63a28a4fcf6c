module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256, block = "auto",
  params = { { "x", "f32[nb][256][2]", access = "inout" } }, input = "x", output = "x" }
persistent "p" { layout = "many_blocks", commands = { "f" } }
persistent "p_threads32" { layout = "many_blocks", block = 128, commands = { "f" } }
