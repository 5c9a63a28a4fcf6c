module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 512, 512, 64 }, tile = { 272, 256, 16 },
  params = { { "A", "f32[512][64]" }, { "B", "f32[64][512]" }, { "C", "f32[512][512]", access = "out" } },
  a = "A", b = "B", c = "C",
  split_k = 2 }
