-- fft_chain: a frame that filters a batch of real signals in the frequency
-- domain and measures the result - r2c FFT, a gain per frequency, c2r FFT,
-- energy - with ONE host handshake per frame.  The FFTs are NVIDIA cuFFTDx
-- block FFTs (MathDx); CUDA only.  Complex values are (re, im) pairs: a
-- view whose last extent is 2.  FFTs are unnormalized (like cuFFT): the
-- gain carries the 1/320 of the round trip.
module { name = "fft_chain", targets = { "cuda" } }

kernel "spectrum" { pattern = "fft", size = 320, type = "r2c",
  params = { { "sig", "f32[nb][320]" }, { "spec", "f32[nb][161][2]", access = "out" } },
  input = "sig", output = "spec" }

kernel "shape" { pattern = "for", range = { "nb", 161 }, index = { "b", "k" },
  params = { { "spec", "f32[nb][161][2]", access = "inout" }, { "gain", "f32[161]" } },
  body = [[
    spec(b, k, 0) *= gain(k);
    spec(b, k, 1) *= gain(k);
  ]] }

kernel "back" { pattern = "fft", size = 320, type = "c2r",
  params = { { "spec", "f32[nb][161][2]" }, { "res", "f32[nb][320]", access = "out" } },
  input = "spec", output = "res" }

kernel "energy" { pattern = "reduce", range = { "nb", 320 },
  params = { { "res", "f32[nb][320]" }, { "e", "f64[1]", access = "out" } },
  value = "(double)res(i, j) * res(i, j)", into = "e" }

frame "filter" {
  params = { { "sig", "f32[nb][320]" }, { "spec", "f32[nb][161][2]" }, { "gain", "f32[161]" },
    { "res", "f32[nb][320]" }, { "e", "f64[1]" } },
  stages = { { "spectrum" }, { "shape" }, { "back" }, { "energy" } },
  result = "e",
}

-- a 320-point FFT runs on 32 threads here (gpugen explain says why): the
-- persistent kernel's block is the FFTs' block, whole blocks (no groups)
persistent "loop" { layout = "many_blocks", block = 32, commands = { "filter", "spectrum" } }
