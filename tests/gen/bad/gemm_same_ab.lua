module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 16, 16, 16 },
  params = { { "A", "f32[16][16]" }, { "C", "f32[16][16]", access = "out" } },
  a = "A",
  b = "A", c = "C" }
