-- beamform: a frame that steers a 24-sensor array into 16 beams and finds
-- the strongest - FFT, beamform (a complex gemm, Y = W^H X), detect (|Y|^2
-- and its maximum) - with ONE host handshake per frame.  The FFT is an
-- NVIDIA cuFFTDx block FFT, the product a cuBLASDx block GEMM (MathDx);
-- CUDA only.  Complex values are (re, im) pairs: a view whose last extent
-- is 2, so the FFT's output is the gemm's input as it stands.
module { name = "beamform", targets = { "cuda" } }

-- each sensor's 256 samples to its spectrum: X[s][f], 24 x 256 complex
kernel "spectra" { pattern = "fft", size = 256, block = 128,
  params = { { "x", "f32[24][256][2]" }, { "X", "f32[24][256][2]", access = "out" } },
  input = "x", output = "X" }

-- beam b at frequency f: Y[b][f] = sum over sensors s of conj(W[s][b]) X[s][f],
-- Y = W^H X; W holds each beam's steering weights as a column (sensors x
-- beams), so op_a = "c" (conjugate transposed)
kernel "beams" { pattern = "gemm", type = "complex", size = { 16, 256, 24 }, op_a = "c",
  params = { { "W", "f32[24][16][2]" }, { "X", "f32[24][256][2]" },
    { "Y", "f32[16][256][2]", access = "out" } },
  a = "W", b = "X", c = "Y" }

-- detect: the power of every beam and frequency, then its maximum
kernel "power" { pattern = "for", range = { 16, 256 }, index = { "b", "f" },
  params = { { "Y", "f32[16][256][2]" }, { "P", "f32[16][256]", access = "out" } },
  body = "P(b, f) = Y(b, f, 0) * Y(b, f, 0) + Y(b, f, 1) * Y(b, f, 1);" }
kernel "peak" { pattern = "reduce", range = { 16, 256 },
  params = { { "P", "f32[16][256]" }, { "pk", "f32[1]", access = "out" } },
  value = "P(i, j)", op = "max", into = "pk" }

frame "detect" {
  params = { { "x", "f32[24][256][2]" }, { "X", "f32[24][256][2]" }, { "W", "f32[24][16][2]" },
    { "Y", "f32[16][256][2]" }, { "P", "f32[16][256]" }, { "pk", "f32[1]" } },
  stages = { { "spectra" }, { "beams" }, { "power" }, { "peak" } },
  result = "pk",
}

-- the FFT runs on 128 threads (a 256-point FFT, 2 elements each) and the
-- gemm on its 128 (BlockDim): the persistent kernel's block is theirs
persistent "loop" { layout = "many_blocks", block = 128, commands = { "detect", "beams" } }
