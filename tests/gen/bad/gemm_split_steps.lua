module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 32, 32, 40 },
  params = { { "A", "f32[32][40]" }, { "B", "f32[40][32]" }, { "C", "f32[32][32]", access = "out" } },
  a = "A", b = "B", c = "C",
  split_k = 4 }
