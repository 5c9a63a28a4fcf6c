-- gemm: a batch of small matrix products on cuBLASDx (NVIDIA MathDx), as
-- a kernel, a persistent command and a frame stage.  CUDA only.  The plan
-- tiles C over blocks (`gpugen explain examples/gemm.lua gemm40` shows the
-- tile and why); `tile = { tm, tn, tk }` sets it.
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

-- a frame: the product, then C scaled by s (a grid barrier between them:
-- the scale reads what the product wrote)
kernel "scale" { pattern = "for", range = { "batch", 40, 40 },
  params = { { "C", "f32[batch][40][40]", access = "inout" }, { "s", "f32" } },
  body = "C(b, i, j) *= s;", index = { "b", "i", "j" } }
frame "product_then_scale" {
  params = { { "A", "f32[batch][40][40]" }, { "B", "f32[batch][40][40]" },
    { "C", "f32[batch][40][40]" }, { "alpha", "f32" }, { "beta", "f32" }, { "s", "f32" } },
  stages = { { "gemm40" }, { "scale" } },
}

-- a gemm body needs whole hardware blocks of its block size (128 here):
-- layouts one_block or many_blocks, block = the gemm's block
persistent "loop" { layout = "many_blocks", block = 128,
  commands = { "gemm40", "product_then_scale" } }
