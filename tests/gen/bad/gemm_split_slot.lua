module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 256, 256, 64 }, tile = { 256, 256, 16 },
  params = { { "A", "f32[256][64]" }, { "B", "f32[64][256]" }, { "C", "f32[256][256]", access = "out" } },
  a = "A", b = "B", c = "C",
  split_k = 2 }
