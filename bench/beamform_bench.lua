-- beamform_bench: the beamformer's chain FFT -> beamform -> detect at three
-- array sizes, as one gpugen frame each (one host handshake), against
-- cuFFT + cuBLAS + a detect kernel in a CUDA graph (bench/beamform_bench.c,
-- bench/beamform_ref.cu).  examples/beamform.lua is the first shape; here
-- the detect is one stage (the power of every beam and frequency goes
-- straight into the maximum, as the peer's detect kernel does), so both
-- ways write the spectra X and the beams Y and return the peak.
--   X[s][f] = FFT of sensor s's L samples (c2c f32, forward, unnormalized)
--   Y[b][f] = sum over sensors s of conj(W[s][b]) X[s][f]   (Y = W^H X)
--   pk      = max over b, f of |Y[b][f]|^2
module { name = "beamform_bench", targets = { "cuda" } }

-- One shape: S sensors of L samples, B beams.  The FFT and the gemm run on
-- `block` threads each, the persistent kernel's block; its blocks are one
-- per sensor (the FFT stage's items; the gemm's tiles and the detect's
-- range spread over the same blocks).
local function chain(name, S, L, B, block, narrow)
  local cx = string.format("f32[%d][%d][2]", S, L)
  local cw = string.format("f32[%d][%d][2]", S, B)
  local cy = string.format("f32[%d][%d][2]", B, L)
  kernel (name .. "_fft") { pattern = "fft", size = L, block = block,
    params = { { "x", cx }, { "X", cx, access = "out" } }, input = "x", output = "X" }
  -- W holds each beam's steering weights as a column (sensors x beams):
  -- op_a = "c" reads it conjugate transposed
  kernel (name .. "_beams") { pattern = "gemm", type = "complex", size = { B, L, S }, op_a = "c",
    block = block,
    params = { { "W", cw }, { "X", cx }, { "Y", cy, access = "out" } }, a = "W", b = "X", c = "Y" }
  kernel (name .. "_peak") { pattern = "reduce", range = { B, L },
    params = { { "Y", cy }, { "pk", "f32[1]", access = "out" } },
    value = "Y(i, j, 0) * Y(i, j, 0) + Y(i, j, 1) * Y(i, j, 1)", op = "max", into = "pk" }
  frame (name) {
    params = { { "x", cx }, { "X", cx }, { "W", cw }, { "Y", cy }, { "pk", "f32[1]" } },
    stages = { { name .. "_fft" }, { name .. "_beams" }, { name .. "_peak" } },
    result = "pk",
  }
  -- the same chain with the detect in the beams' post statements: each
  -- thread contributes the power of every element of Y it stores to the
  -- maximum (no third stage, no grid barrier before it, Y not read back);
  -- tile = "auto": the frame gets a variant for each other tile of the
  -- same block, which the auto row's tuner measures beside it
  kernel (name .. "_beams_peak") { pattern = "gemm", type = "complex", size = { B, L, S },
    op_a = "c", block = block, tile = "auto",
    params = { { "W", cw }, { "X", cx }, { "Y", cy, access = "out" }, { "pk", "f32[1]", access = "out" } },
    a = "W", b = "X", c = "Y", post = "contribute(re * re + im * im);", op = "max", into = "pk" }
  frame (name .. "_fused") {
    params = { { "x", cx }, { "X", cx }, { "W", cw }, { "Y", cy }, { "pk", "f32[1]" } },
    stages = { { name .. "_fft" }, { name .. "_beams_peak" } },
    result = "pk",
  }
  persistent (name .. "_loop") { layout = "many_blocks", blocks = S, block = block,
    commands = { name, name .. "_fused" } }
  -- the fused chain again on `narrow` threads a block (the FFT's and the
  -- gemm's), its own persistent kernel: an alternative the auto row's
  -- tuner measures beside the others (a block of one FFT of fewer
  -- threads, more elements each, ends sooner; the gemm's BlockDim follows)
  if narrow then
    local n = name .. "_narrow"
    kernel (n .. "_fft") { pattern = "fft", size = L, block = narrow,
      params = { { "x", cx }, { "X", cx, access = "out" } }, input = "x", output = "X" }
    kernel (n .. "_beams_peak") { pattern = "gemm", type = "complex", size = { B, L, S },
      op_a = "c", block = narrow, tile = "auto",
      params = { { "W", cw }, { "X", cx }, { "Y", cy, access = "out" }, { "pk", "f32[1]", access = "out" } },
      a = "W", b = "X", c = "Y", post = "contribute(re * re + im * im);", op = "max", into = "pk" }
    frame (n) {
      params = { { "x", cx }, { "X", cx }, { "W", cw }, { "Y", cy }, { "pk", "f32[1]" } },
      stages = { { n .. "_fft" }, { n .. "_beams_peak" } },
      result = "pk",
    }
    persistent (n .. "_loop") { layout = "many_blocks", blocks = S, block = narrow, commands = { n } }
  end
end

-- the example's array: 256-point FFTs on 128 threads (2 elements each),
-- and as the narrow alternative on 32 (8 each; the gemm's BlockDim 32):
-- 8.01-8.17 us against 8.71-8.82 on 128 threads (H200, 2026-11-29
-- 10:38, the tuner's choice, bench/RESULTS.md)
chain("s24_l256_b16", 24, 256, 16, 128, 32)
-- a larger one: 1024-point FFTs on 128 threads (8 each; 64 x 1024 on 128
-- threads and 64 blocks ran as fast as on 256: bench/RESULTS.md)
chain("s64_l1024_b32", 64, 1024, 32, 128)
-- no power of two: 384 = 3 x 128 points on 64 threads (6 each; cuFFTDx
-- has 384 on 8, 16, 32 or 64 threads, so the gemm gets block 64 too)
chain("s48_l384_b24", 48, 384, 24, 64)
