module { name = "m", targets = { "cuda" } }
kernel "f" { pattern = "fft", size = 256, block = "auto",
  params = { { "x", "f32[nb][256][2]", access = "inout" } }, input = "x", output = "x" }
persistent "a_persistent_kernel_name_that_is_just_under_the_limit_of_64_c" {
  layout = "many_blocks", commands = { "f" } }
