-- mathdx_bench: single small GEMMs (cuBLASDx, tiled over blocks by the
-- plan) as gpugen kernels and persistent frames, against cuBLAS in
-- bench/mathdx_bench.c.  C = A B (alpha 1, beta 0), row-major, batch 1;
-- f32 and f16 inputs with f32 accumulation.
module { name = "mathdx_bench", targets = { "cuda" } }

local function gemm(name, t, m, n, k, tile, math, split)
  local function ext(r, c) return string.format("[nb][%d][%d]", r, c) end
  kernel (name) { pattern = "gemm", size = { m, n, k }, tile = tile, math = math, split_k = split,
    params = { { "A", t .. ext(m, k) }, { "B", t .. ext(k, n) },
      { "C", "f32" .. ext(m, n), access = "out" } },
    a = "A", b = "B", c = "C" }
end
-- the plan's tiles: 64^3 in 16 tiles of 16 x 16; 128^3 in 64 of 16 x 16
-- (f32) and 32 of 32 x 16 (f16); 256 x 256 x 128 in 128 of 32 x 16 (f32)
-- and 64 of 32 x 32 (f16; block
-- 128 for all; f16 on 32 tiles of 64 x 32 and 256 threads took 7.46 us
-- against 6.79, results/mathdx-h100-2026-11-24-f16-tiles.md)
gemm("s64", "f32", 64, 64, 64) gemm("s128", "f32", 128, 128, 128)
gemm("h64", "f16", 64, 64, 64) gemm("h128", "f16", 128, 128, 128)
gemm("s256", "f32", 256, 256, 128) gemm("h256", "f16", 256, 256, 128)
-- 128^3 on larger tiles than the plan's, to compare: 16 tiles of 32 x 32,
-- 32 tiles of 32 x 16 (one K step each)
gemm("s128_16", "f32", 128, 128, 128, { 32, 32, 128 })
gemm("s128_32", "f32", 128, 128, 128, { 32, 16, 128 })
gemm("h128_16", "f16", 128, 128, 128, { 32, 32, 128 })
gemm("h128_32", "f16", 128, 128, 128, { 32, 16, 128 })

-- one block strides over the tiles; or as many blocks as tiles.  Each
-- persistent kernel holds commands of one tile size: one kernel compiled
-- for all of them takes the registers and shared memory of the largest
-- (measured: 128^3 on 64 blocks ran 7.05 us alone, 10.10 us sharing its
-- kernel with the 32 x 32 tiles of 256 x 256 x 128)
persistent "p1" { layout = "one_block", block = 128,
  commands = { "s64", "s128", "h64", "h128" } }
persistent "p16" { layout = "many_blocks", blocks = 16, block = 128,
  commands = { "s64", "h64" } }
persistent "p64" { layout = "many_blocks", blocks = 64, block = 128, commands = { "s128" } }
persistent "r1" { layout = "one_block", block = 128,
  commands = { "s128_16", "s128_32", "h128_16", "h128_32" } }
persistent "r16" { layout = "many_blocks", blocks = 16, block = 128,
  commands = { "s128_16", "h128_16" } }
persistent "r32" { layout = "many_blocks", blocks = 32, block = 128,
  commands = { "s128_32", "h128_32", "h128" } }
persistent "q1" { layout = "one_block", block = 128, commands = { "s256", "h256" } }

-- complex (c32): the beamformer's C = A^H B (op_a "c": A stored K x M),
-- against cuBLAS's cgemm (CUBLAS_OP_C); (re, im) pairs, a batch of them
-- [nb][rows][2 x cols].  The plan's tiles: 64^3 in 16 of 16 x 16, 128^3
-- in 64 of 16 x 16
local function cgemm(name, m, n, k)
  local function ext(r, c) return string.format("[nb][%d][%d]", r, 2 * c) end
  kernel (name) { pattern = "gemm", type = "complex", size = { m, n, k }, op_a = "c",
    params = { { "A", "f32" .. ext(k, m) }, { "B", "f32" .. ext(k, n) },
      { "C", "f32" .. ext(m, n), access = "out" } },
    a = "A", b = "B", c = "C" }
end
cgemm("c64", 64, 64, 64) cgemm("c128", 128, 128, 128)
persistent "c1" { layout = "one_block", block = 128, commands = { "c64", "c128" } }
persistent "c16" { layout = "many_blocks", blocks = 16, block = 128, commands = { "c64" } }
persistent "c64b" { layout = "many_blocks", blocks = 64, block = 128, commands = { "c128" } }
persistent "q64" { layout = "many_blocks", blocks = 64, block = 128, commands = { "h256" } }
persistent "q128s" { layout = "many_blocks", blocks = 128, block = 128, commands = { "s256" } }

-- f32 views on tensor cores as TF32 (math = "tf32"), against cuBLAS with
-- CUBLAS_COMPUTE_32F_FAST_TF32; the plan's tiles are f32's (64^3: 16 of
-- 16 x 16, 128^3: 64 of 16 x 16, 256 x 256 x 128: 64 of 32 x 32)
gemm("t64", "f32", 64, 64, 64, nil, "tf32") gemm("t128", "f32", 128, 128, 128, nil, "tf32")
gemm("t256", "f32", 256, 256, 128, nil, "tf32")
persistent "t1" { layout = "one_block", block = 128, commands = { "t64", "t128", "t256" } }
persistent "t16" { layout = "many_blocks", blocks = 16, block = 128, commands = { "t64" } }
persistent "t64b" { layout = "many_blocks", blocks = 64, block = 128, commands = { "t128" } }
persistent "t64q" { layout = "many_blocks", blocks = 64, block = 128, commands = { "t256" } }

-- 256 x 256 x 128 on smaller tiles than the plan's 64 of 32 x 32, to
-- compare: 128 tiles of 16 x 32 and 256 of 16 x 16, on 128 blocks
gemm("s256_a", "f32", 256, 256, 128, { 16, 32, 128 })
gemm("s256_b", "f32", 256, 256, 128, { 16, 16, 128 })
gemm("h256_a", "f16", 256, 256, 128, { 16, 32, 128 })
gemm("t256_a", "f32", 256, 256, 128, { 16, 32, 128 }, "tf32")
persistent "q128" { layout = "many_blocks", blocks = 128, block = 128,
  commands = { "s256_a", "s256_b", "h256_a", "t256_a" } }

-- split_k: a long K over few tiles.  64 x 64 x 1024 f32: the plan's 16
-- tiles of 16 x 16 take K in 2 steps of 512 on 16 blocks; split over 4
-- (64 blocks, a step of 256 each) and 8 (128 blocks, 128 each).  And f16
-- 256 x 256 x 128's 64 tiles of 32 x 32 split over 2 (128 blocks).
gemm("sk", "f32", 64, 64, 1024)
gemm("sk4", "f32", 64, 64, 1024, nil, nil, 4)
gemm("sk8", "f32", 64, 64, 1024, nil, nil, 8)
gemm("h256s", "f16", 256, 256, 128, nil, nil, 2)
persistent "k1" { layout = "one_block", block = 128, commands = { "sk" } }
persistent "k16" { layout = "many_blocks", blocks = 16, block = 128, commands = { "sk" } }
persistent "k64" { layout = "many_blocks", blocks = 64, block = 128, commands = { "sk4" } }
persistent "k128" { layout = "many_blocks", blocks = 128, block = 128, commands = { "sk8" } }
persistent "q128h" { layout = "many_blocks", blocks = 128, block = 128, commands = { "h256s" } }

-- FFTs (cuFFTDx): a batch of 64 in-place c2c f32 forward FFTs of 256, 320
-- and 1024 points, against cuFFT, at each thread count per FFT worth
-- comparing (N / elements per thread, cuFFTDx's choices for the size):
-- f<N>_<threads>.  A block runs one FFT at a time and the persistent kernel
-- of each row has blocks of that FFT's threads on every SM (one kernel per
-- variant: a kernel holding several FFTs takes the registers of the
-- largest).
local function fft(n, threads)
  local name = string.format("f%d_%d", n, threads)
  kernel (name) { pattern = "fft", size = n, block = threads,
    params = { { "x", "f32[nb][" .. n .. "][2]", access = "inout" } }, input = "x", output = "x" }
  persistent ("p" .. name) { layout = "many_blocks", block = threads, commands = { name } }
end
for _, t in ipairs { 32, 64, 128 } do fft(256, t) end
fft(320, 32)
for _, t in ipairs { 32, 128, 256, 512 } do fft(1024, t) end
