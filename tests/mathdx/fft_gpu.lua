-- fft (cuFFTDx) checked on the GPU by test_fft_gpu.c against a CPU DFT in
-- double: c2c forward and inverse, r2c and c2r, f32 and f64, at sizes that
-- are not powers of two (12, 100, 240, 320, 1000) and powers of two (16,
-- 256), with a run-time batch; as kernels, as a persistent command, and as
-- the stages of a frame (FFT -> filter -> inverse FFT -> energy).
-- Complex data are (re, im) pairs: a view whose last extent is 2.
module { name = "fft_gpu", targets = { "cuda" } }

kernel "c16" { pattern = "fft", size = 16, direction = "forward",
  params = { { "x", "f32[nb][16][2]" }, { "y", "f32[nb][16][2]", access = "out" } },
  input = "x", output = "y" }

kernel "c12i" { pattern = "fft", size = 12, direction = "inverse",
  params = { { "x", "f32[nb][12][2]" }, { "y", "f32[nb][12][2]", access = "out" } },
  input = "x", output = "y" }

kernel "c1000" { pattern = "fft", size = 1000,
  params = { { "x", "f32[nb][1000][2]" }, { "y", "f32[nb][1000][2]", access = "out" } },
  input = "x", output = "y" }

-- f64, in place
kernel "z100" { pattern = "fft", size = 100, direction = "inverse",
  params = { { "x", "f64[nb][100][2]", access = "inout" } },
  input = "x", output = "x" }

-- f64 forward, 256 points, a block written out (cuFFTDx has 16, 32, 64, 128 here)
kernel "z256" { pattern = "fft", size = 256, block = 64,
  params = { { "x", "f64[nb][256][2]" }, { "y", "f64[nb][256][2]", access = "out" } },
  input = "x", output = "y" }

kernel "r240" { pattern = "fft", size = 240, type = "r2c",
  params = { { "x", "f32[nb][240]" }, { "y", "f32[nb][121][2]", access = "out" } },
  input = "x", output = "y" }

kernel "d100r" { pattern = "fft", size = 100, type = "c2r",
  params = { { "x", "f64[nb][51][2]" }, { "y", "f64[nb][100]", access = "out" } },
  input = "x", output = "y" }

kernel "r1000" { pattern = "fft", size = 1000, type = "c2r",
  params = { { "x", "f32[nb][501][2]" }, { "y", "f32[nb][1000]", access = "out" } },
  input = "x", output = "y" }

kernel "d12" { pattern = "fft", size = 12, type = "r2c",
  params = { { "x", "f64[nb][12]" }, { "y", "f64[nb][7][2]", access = "out" } },
  input = "x", output = "y" }

-- one FFT, no batch extent
kernel "one" { pattern = "fft", size = 240,
  params = { { "x", "f32[240][2]" }, { "y", "f32[240][2]", access = "out" } },
  input = "x", output = "y" }

-- the frame: a real signal's spectrum (r2c), times a filter H, back to a
-- real signal (c2r, unnormalized: H carries the 1/N), and its energy
kernel "fwd" { pattern = "fft", size = 320, type = "r2c",
  params = { { "x", "f32[nb][320]" }, { "S", "f32[nb][161][2]", access = "out" } },
  input = "x", output = "S" }
kernel "filt" { pattern = "for", range = { "nb", 161 },
  params = { { "S", "f32[nb][161][2]", access = "inout" }, { "H", "f32[161][2]" } },
  body = [[
    const float re = S(i, j, 0), im = S(i, j, 1);
    S(i, j, 0) = re * H(j, 0) - im * H(j, 1);
    S(i, j, 1) = re * H(j, 1) + im * H(j, 0);
  ]] }
kernel "inv" { pattern = "fft", size = 320, type = "c2r",
  params = { { "S", "f32[nb][161][2]" }, { "y", "f32[nb][320]", access = "out" } },
  input = "S", output = "y" }
kernel "energy" { pattern = "reduce", range = { "nb", 320 },
  params = { { "y", "f32[nb][320]" }, { "e", "f64[1]", access = "out" } },
  value = "(double)y(i, j) * y(i, j)", into = "e" }
frame "chain" {
  params = { { "x", "f32[nb][320]" }, { "S", "f32[nb][161][2]" }, { "H", "f32[161][2]" },
    { "y", "f32[nb][320]" }, { "e", "f64[1]" } },
  stages = { { "fwd" }, { "filt" }, { "inv" }, { "energy" } },
}

-- a 256-point c2c FFT and the 320-point chain both run on 32 threads
kernel "c256" { pattern = "fft", size = 256,
  params = { { "x", "f32[nb][256][2]" }, { "y", "f32[nb][256][2]", access = "out" } },
  input = "x", output = "y" }

persistent "p_one" { layout = "one_block", block = 32, commands = { "c256", "chain" } }
persistent "p_many" { layout = "many_blocks", block = 32, commands = { "c256", "chain" } }
