-- gemm: a batch of small matrix products on cuBLASDx (NVIDIA MathDx), as
-- a kernel, a persistent command and a frame stage.  CUDA only.
module { name = "gemm", targets = { "cuda" } }

-- C = alpha A B + beta C for each of `batch` 40 x 40 matrices (f32)
kernel "gemm40" {
  pattern = "gemm",
  size    = { 40, 40, 40 },                 -- M, N, K
  params  = {
    { "A", "f32[batch][40][40]" },          -- M x K, row-major
    { "B", "f32[batch][40][40]" },          -- K x N
    { "C", "f32[batch][40][40]", access = "inout" },
    { "alpha", "f32" }, { "beta", "f32" },
  },
  a = "A", b = "B", c = "C", alpha = "alpha", beta = "beta",
}

-- half-precision inputs, f32 accumulation (tensor cores), B transposed:
-- Bt holds B as N x K
kernel "hgemm" {
  pattern = "gemm",
  size    = { 64, 64, 64 },
  params  = {
    { "A", "f16[batch][64][64]" },
    { "Bt", "f16[batch][64][64]" },
    { "C", "f32[batch][64][64]", access = "out" },
  },
  a = "A", b = "Bt", c = "C", op_b = "t",
}

-- a frame: the product, then a scale of C
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "C", "f32[n]", access = "inout" }, { "s", "f32" } }, body = "C(i) *= s;" }

persistent "loop" { layout = "many_blocks", block = 128, commands = { "gemm40" } }
