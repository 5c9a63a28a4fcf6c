-- gemm (cuBLASDx) checked on the GPU by test_gemm_gpu.c: every type and
-- transpose at sizes that are not multiples of any tile (40^3, 48x24x72)
-- and a power of two (64^3), with a run-time batch; as kernels, as a
-- persistent command, and as the first stage of a frame.
module { name = "gemm_gpu", targets = { "cuda" } }

-- f32, alpha and beta given at run time
kernel "g40" { pattern = "gemm", size = { 40, 40, 40 },
  params = { { "A", "f32[nb][40][40]" }, { "B", "f32[nb][40][40]" },
    { "C", "f32[nb][40][40]", access = "inout" }, { "alpha", "f32" }, { "beta", "f32" } },
  a = "A", b = "B", c = "C", alpha = "alpha", beta = "beta" }

-- f32, A stored transposed (K x M), beta 0: C is only written
kernel "g48t" { pattern = "gemm", size = { 48, 24, 72 }, op_a = "t",
  params = { { "A", "f32[nb][72][48]" }, { "B", "f32[nb][72][24]" },
    { "C", "f32[nb][48][24]", access = "out" } },
  a = "A", b = "B", c = "C", alpha = 1.5 }

-- f64, B stored transposed (N x K), constant alpha and beta
kernel "d64" { pattern = "gemm", size = { 64, 64, 64 }, op_b = "t",
  params = { { "A", "f64[nb][64][64]" }, { "B", "f64[nb][64][64]" },
    { "C", "f64[nb][64][64]", access = "inout" } },
  a = "A", b = "B", c = "C", alpha = 2, beta = -1 }

-- f16 in, f32 accumulation on tensor cores, both transposed
kernel "h48" { pattern = "gemm", size = { 48, 24, 72 }, op_a = "t", op_b = "t",
  params = { { "A", "f16[nb][72][48]" }, { "B", "f16[nb][24][72]" },
    { "C", "f32[nb][48][24]", access = "out" } },
  a = "A", b = "B", c = "C" }

-- bf16 in, f32 accumulation, 64^3
kernel "b64" { pattern = "gemm", size = { 64, 64, 64 },
  params = { { "A", "bf16[nb][64][64]" }, { "B", "bf16[nb][64][64]" },
    { "C", "f32[nb][64][64]", access = "inout" } },
  a = "A", b = "B", c = "C", alpha = 0.5, beta = 0.25 }

-- one matrix (rank-2 views, no batch), odd sizes, A and B transposed
kernel "one" { pattern = "gemm", size = { 12, 20, 28 }, op_a = "t", op_b = "t",
  params = { { "A", "f32[28][12]" }, { "B", "f32[20][28]" }, { "C", "f32[12][20]", access = "inout" } },
  a = "A", b = "B", c = "C", alpha = -1, beta = 3 }

-- a frame: C = alpha A B + beta C, then C *= s (depends on the product)
kernel "scale" { pattern = "for", range = { "nb", 40, 40 },
  params = { { "C", "f32[nb][40][40]", access = "inout" }, { "s", "f32" } },
  body = "C(i, j, k) *= s;" }
frame "fr" {
  params = { { "A", "f32[nb][40][40]" }, { "B", "f32[nb][40][40]" }, { "C", "f32[nb][40][40]" },
    { "alpha", "f32" }, { "beta", "f32" }, { "s", "f32" } },
  stages = { { "g40" }, { "scale" } },
}

persistent "p_one" { layout = "one_block", block = 128, commands = { "g40", "fr" } }
persistent "p_many" { layout = "many_blocks", block = 128, commands = { "g40", "fr" } }
