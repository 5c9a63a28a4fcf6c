module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", type = "complex", size = { 16, 24, 8 },
  params = { { "A", "f32[n][16][16]" }, { "B", "f32[8][24][2]" },
    { "C", "f32[n][16][48]", access = "inout" } },
  a = "A", b = "B", c = "C", beta = { 0, 1 } }
