-- mathdx_bench: single small GEMMs (cuBLASDx) as gpugen persistent
-- frames, against cuBLAS in bench/mathdx_bench.c.  C = A B (alpha 1,
-- beta 0), row-major, batch 1; f32 and f16 inputs with f32 accumulation.
module { name = "mathdx_bench", targets = { "cuda" } }

local function gemm(name, t, n)
  kernel (name) { pattern = "gemm", size = { n, n, n }, block = 256,
    params = { { "A", t .. "[nb][" .. n .. "][" .. n .. "]" },
      { "B", t .. "[nb][" .. n .. "][" .. n .. "]" },
      { "C", "f32[nb][" .. n .. "][" .. n .. "]", access = "out" } },
    a = "A", b = "B", c = "C" }
end
gemm("s64", "f32", 64) gemm("s128", "f32", 128)
gemm("h64", "f16", 64) gemm("h128", "f16", 128)

-- one block of 256 threads: the whole GEMM is one cuBLASDx block GEMM
persistent "p" { layout = "one_block", block = 256, commands = { "s64", "s128", "h64", "h128" } }

-- FFTs (cuFFTDx): a batch of 64 in-place c2c f32 forward FFTs of 256 and
-- 320 points (32 threads each), against cuFFT.  A persistent kernel of
-- 32-thread blocks on every SM: the blocks stride over the batch.
local function fft(name, n)
  kernel (name) { pattern = "fft", size = n,
    params = { { "x", "f32[nb][" .. n .. "][2]", access = "inout" } }, input = "x", output = "x" }
end
fft("f256", 256) fft("f320", 320)
persistent "pf" { layout = "many_blocks", block = 32, commands = { "f256", "f320" } }
