-- mathdx_bench: single small GEMMs (cuBLASDx, tiled over blocks by the
-- plan) as gpugen kernels and persistent frames, against cuBLAS in
-- bench/mathdx_bench.c.  C = A B (alpha 1, beta 0), row-major, batch 1;
-- f32 and f16 inputs with f32 accumulation.
module { name = "mathdx_bench", targets = { "cuda" } }

local function gemm(name, t, m, n, k, tile)
  local function ext(r, c) return string.format("[nb][%d][%d]", r, c) end
  kernel (name) { pattern = "gemm", size = { m, n, k }, tile = tile,
    params = { { "A", t .. ext(m, k) }, { "B", t .. ext(k, n) },
      { "C", "f32" .. ext(m, n), access = "out" } },
    a = "A", b = "B", c = "C" }
end
-- 64^3: 16 tiles of 16 x 16; 128^3: 16 tiles of 32 x 32 (block 128)
gemm("s64", "f32", 64, 64, 64) gemm("s128", "f32", 128, 128, 128)
gemm("h64", "f16", 64, 64, 64) gemm("h128", "f16", 128, 128, 128)
-- 128^3 on smaller tiles than the plan's, to compare: 32 tiles of 32 x 16,
-- 64 tiles of 16 x 16 (one K step each)
gemm("s128_32", "f32", 128, 128, 128, { 32, 16, 128 })
gemm("s128_64", "f32", 128, 128, 128, { 16, 16, 128 })
gemm("h128_32", "f16", 128, 128, 128, { 32, 16, 128 })
gemm("h128_64", "f16", 128, 128, 128, { 16, 16, 128 })
-- 256 x 256 x 128: 16 tiles of 64 x 64 (block 256)
gemm("s256", "f32", 256, 256, 128) gemm("h256", "f16", 256, 256, 128)

-- one block strides over the 16 tiles; or 16 blocks, one tile each
persistent "p1" { layout = "one_block", block = 128,
  commands = { "s64", "s128", "h64", "h128", "s128_32", "s128_64", "h128_32", "h128_64" } }
persistent "p16" { layout = "many_blocks", blocks = 16, block = 128,
  commands = { "s64", "s128", "h64", "h128" } }
persistent "p32" { layout = "many_blocks", blocks = 32, block = 128,
  commands = { "s128_32", "h128_32" } }
persistent "p64" { layout = "many_blocks", blocks = 64, block = 128,
  commands = { "s128_64", "h128_64" } }
persistent "q1" { layout = "one_block", block = 256, commands = { "s256", "h256" } }
persistent "q16" { layout = "many_blocks", blocks = 16, block = 256, commands = { "s256", "h256" } }

-- FFTs (cuFFTDx): a batch of 64 in-place c2c f32 forward FFTs of 256 and
-- 320 points (32 threads each), against cuFFT.  A persistent kernel of
-- 32-thread blocks on every SM: the blocks stride over the batch.
local function fft(name, n)
  kernel (name) { pattern = "fft", size = n,
    params = { { "x", "f32[nb][" .. n .. "][2]", access = "inout" } }, input = "x", output = "x" }
end
fft("f256", 256) fft("f320", 320)
persistent "pf" { layout = "many_blocks", block = 32, commands = { "f256", "f320" } }
