-- a NaN in the imaginary part of a complex alpha: the message names the part
module { name = "m", targets = { "cuda" } }
kernel "cg" { pattern = "gemm", type = "complex", size = { 16, 16, 16 }, alpha = { 1, 0/0 },
  params = { { "A", "f32[16][16][2]" }, { "B", "f32[16][16][2]" }, { "C", "f32[16][16][2]", access = "out" } },
  a = "A", b = "B", c = "C" }
