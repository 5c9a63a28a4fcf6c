module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 64, 64, 64 },
  params = { { "A", "f32[64][64]" }, { "B", "f32[64][64]" }, { "C", "f32[64][64]", access = "out" } },
  a = "A", b = "B", c = "C",
  tile = "fast" }
