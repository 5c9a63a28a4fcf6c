-- 0/0 is NaN: not an integer, and said so (not "fractional")
module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 64, 64, 1024 }, split_k = 0/0,
  params = { { "A", "f32[64][1024]" }, { "B", "f32[1024][64]" }, { "C", "f32[64][64]", access = "out" } },
  a = "A", b = "B", c = "C" }
