-- split_k: K in ranges on groups of blocks, the last of a group to finish
-- summing the partials.  f32 64 x 64 x 1000 (16 x 16 tiles, K's share
-- 125 -> one step of 128 each, the last split's step partly pad), split
-- over 8; a written tile whose K step leaves 3 ranges; a complex one with
-- op_a "c" and post statements (run once per element, by the last
-- arriver); and split_k in a frame
module { name = "m", targets = { "cuda" } }
kernel "deep" { pattern = "gemm", size = { 64, 64, 1000 }, split_k = 8,
  params = { { "A", "f32[n][64][1000]" }, { "B", "f32[n][1000][64]" }, { "C", "f32[n][64][64]", access = "inout" } },
  a = "A", b = "B", c = "C", beta = 1 }
kernel "mine" { pattern = "gemm", size = { 40, 24, 300 }, split_k = 3, tile = { 16, 16, 96 },
  params = { { "A", "f64[40][300]" }, { "B", "f64[300][24]" }, { "C", "f64[40][24]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "peak" { pattern = "gemm", size = { 24, 40, 96 }, split_k = 2, type = "complex", op_a = "c",
  params = { { "W", "f32[96][24][2]" }, { "X", "f32[96][40][2]" }, { "Y", "f32[24][40][2]", access = "out" } },
  a = "W", b = "X", c = "Y", post = "re = re * re + im * im; im = 0;" }
persistent "p" { layout = "many_blocks", blocks = 10, block = 128, commands = { "mine" } }
frame "fr" { params = { { "A", "f64[40][300]" }, { "B", "f64[300][24]" }, { "C", "f64[40][24]" } },
  stages = { { "mine", A = "A", B = "B", C = "C" } } }
persistent "pf" { layout = "many_blocks", blocks = 9, block = 128, commands = { "fr" } }
