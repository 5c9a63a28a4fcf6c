-- math = "tf32" gemms (f32 views multiplied on tensor cores as TF32,
-- accumulated in f32), checked on the GPU by test_tf32_gpu.c: a real one
-- at sizes that are not multiples of the tile (40 x 24 x 72, K in 3 steps
-- of 32, the last partial after the pad) and a complex one (37 x 53 x 29,
-- op_a "c"), each as a kernel; a real one whose panels are whole (t64);
-- and a real one with K split over 3 blocks (t40s).
module { name = "tf32_gpu", targets = { "cuda" } }

kernel "t40" { pattern = "gemm", size = { 40, 24, 72 }, math = "tf32", tile = { 16, 16, 32 },
  params = { { "A", "f32[40][72]" }, { "B", "f32[72][24]" }, { "C", "f32[40][24]", access = "out" } },
  a = "A", b = "B", c = "C" }

-- whole panels (64 x 48 x 64 on the plan's 16 x 16 tiles, K in one step):
-- cuBLASDx's copy stages them, the f32 bits as they are
kernel "t64" { pattern = "gemm", size = { 64, 48, 64 }, math = "tf32",
  params = { { "A", "f32[64][64]" }, { "B", "f32[64][48]" }, { "C", "f32[64][48]", access = "out" } },
  a = "A", b = "B", c = "C" }

-- split_k on TF32: K = 100 in 3 ranges, each one K step of 48 (100 / 3
-- rounded up to 16; the last range partial, read as zeros past K)
kernel "t40s" { pattern = "gemm", size = { 40, 24, 100 }, math = "tf32", split_k = 3,
  params = { { "A", "f32[40][100]" }, { "B", "f32[100][24]" }, { "C", "f32[40][24]", access = "out" } },
  a = "A", b = "B", c = "C" }

kernel "ct" { pattern = "gemm", size = { 37, 53, 29 }, math = "tf32", type = "complex", op_a = "c",
  params = { { "A", "f32[29][37][2]" }, { "B", "f32[29][53][2]" }, { "C", "f32[37][53][2]", access = "inout" } },
  a = "A", b = "B", c = "C", alpha = { 0.5, -1 }, beta = { 1, 0.25 } }
