module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 16, 16, 16 },
  params = { { "A", "f32[16][16]" }, { "B", "f32[16][16]" }, { "C", "f32[16][16]", access = "out" } },
  a = "A", b = "B", c = "C",
  alpha = { 1, 2 } }
