-- gemm post statements (cuBLAS's epilogue) and contribute() into a
-- result, checked on the GPU by test_gemm_post_gpu.c against a CPU
-- reference: the statements change the stored element, see its row i,
-- column j and batch item, and contribute to a reduction (max, sum; one
-- value and two), in real f32, f16 inputs and complex
-- c32 and c64, at sizes that are no multiple of the tile; as kernels,
-- persistent commands and the last stage of a frame whose result is the
-- reduction (one_block and many_blocks).
module { name = "gemm_post_gpu", targets = { "cuda" } }

-- f32 45 x 37 x 29: a leaky ReLU on C, then its maximum and the sum of its
-- diagonal (i == j)
kernel "relu" { pattern = "gemm", size = { 45, 37, 29 },
  params = { { "A", "f32[45][29]" }, { "B", "f32[29][37]" }, { "C", "f32[45][37]", access = "out" },
    { "st", "f32[2]", access = "out" } },
  a = "A", b = "B", c = "C",
  post = "if (re < 0) re *= 0.25f; contribute(re, i == j ? re : 0.0f);",
  op = { "max", "sum" }, into = "st" }

-- c32, batched, W^H X: each item's beams, the largest |Y|^2 over all items
kernel "peak" { pattern = "gemm", type = "complex", size = { 24, 53, 19 }, op_a = "c",
  params = { { "W", "f32[b][19][48]" }, { "X", "f32[b][19][106]" }, { "Y", "f32[b][24][106]", access = "out" },
    { "pk", "f32[1]", access = "out" } },
  a = "W", b = "X", c = "Y", post = "contribute(re * re + im * im);", op = "max", into = "pk" }

-- c64, batched: item added to every real part, C's imaginary parts negated
-- (its conjugate), the sum of the new real parts
kernel "zitem" { pattern = "gemm", type = "complex", size = { 16, 20, 12 },
  params = { { "A", "f64[b][16][24]" }, { "B", "f64[b][12][40]" }, { "C", "f64[b][16][40]", access = "out" },
    { "tot", "f64[1]", access = "out" } },
  a = "A", b = "B", c = "C", post = "re += (double)item; im = -im; contribute(re);", into = "tot" }

-- f16 40 x 24 x 32 (f32 accumulation, C f32): C halved by the statements,
-- no into
kernel "hpost" { pattern = "gemm", size = { 40, 24, 32 },
  params = { { "A", "f16[40][32]" }, { "B", "f16[32][24]" }, { "C", "f32[40][24]", access = "out" } },
  a = "A", b = "B", c = "C", post = "re = re * 0.5f;" }

-- a frame: the input scaled by s, then the peak as its last stage (the
-- frame's result)
kernel "wscale" { pattern = "for", range = { "b", 19, 48 },
  params = { { "W", "f32[b][19][48]", access = "inout" }, { "s", "f32" } },
  body = "W(i, j, k) *= s;" }
-- (W, Y and pk are host-mapped here, so the test reads them after each frame:
-- the acknowledgement then releases them too)
frame "fr" {
  params = { { "W", "f32[b][19][48]", space = "mapped" }, { "X", "f32[b][19][106]" },
    { "Y", "f32[b][24][106]", space = "mapped" }, { "pk", "f32[1]", space = "mapped" }, { "s", "f32" } },
  stages = { { "wscale" }, { "peak" } },
  result = "pk",
}

persistent "p_one" { layout = "one_block", block = 128, commands = { "relu", "peak", "fr" } }
persistent "p_many" { layout = "many_blocks", block = 128, commands = { "relu", "peak", "fr", "zitem" } }

-- views called make and cute (names a workload may give): the post's view
-- macros and the tiles' namespaces must not meet them (compiled by
-- mathdx_gemm_post_check; not launched)
kernel "named" { pattern = "gemm", size = { 20, 30, 12 },
  params = { { "cute", "f32[20][12]" }, { "B", "f32[12][30]" }, { "C", "f32[20][30]", access = "out" },
    { "make", "f32[30]" } },
  a = "cute", b = "B", c = "C", post = "re *= make(j);" }
