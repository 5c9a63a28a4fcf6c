module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 16, 16, 16 },
  params = { { "A", "f16[16][16]" }, { "B", "f16[16][16]" }, { "C", "f32[16][16]", access = "inout" } },
  a = "A", b = "B", c = "C",
  beta = 1e-300 }
