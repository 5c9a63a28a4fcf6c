-- A 120-point FFT runs on 4 threads (cuFFTDx's only count for the size
-- here): not whole warps, so no persistent kernel can run it, as a frame
-- stage or as a command.
module { name = "fft_not_warps", targets = { "cuda" } }
kernel "doppler" { pattern = "fft", size = 120,
  params = { { "z", "f32[nr][120][2]", access = "inout" } }, input = "z", output = "z" }
frame "dop" { params = { { "z", "f32[nr][120][2]" } }, stages = { { "doppler" } } }
persistent "trk" { layout = "many_blocks", commands = { "dop" } }
