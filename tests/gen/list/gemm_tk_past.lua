-- a written tk past K (rounded up to 16) is taken as all of K in one step
module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 16, 16, 5 }, tile = { 16, 16, 1024 },
  params = { { "A", "f32[16][5]" }, { "B", "f32[5][16]" }, { "C", "f32[16][16]", access = "out" } },
  a = "A", b = "B", c = "C" }
