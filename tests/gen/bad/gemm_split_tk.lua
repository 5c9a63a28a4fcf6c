module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 32, 32, 100 }, tile = { 16, 16, 64 },
  params = { { "A", "f32[32][100]" }, { "B", "f32[100][32]" }, { "C", "f32[32][32]", access = "out" } },
  a = "A", b = "B", c = "C",
  split_k = 3 }
