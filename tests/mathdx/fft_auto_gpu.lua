-- fft block = "auto" (test_fft_auto_gpu.c): each fft keeps the plan's
-- thread count and gets a kernel for each other count of whole warps
-- cuFFTDx has for its size ("<name>_threads<t>"): 384 points (2^7 x 3)
-- on 64 threads, a variant on 32; 512 points on 256, variants on 32, 64
-- and 128.  Each frame (the FFT, a gain, the inverse FFT, in place) gets
-- a variant per count ("<frame>_threads<t>"), and the persistent kernel
-- that runs it one on each count ("<persistent>_threads<t>").
module { name = "fft_auto_gpu", targets = { "cuda" } }
local function chain(n)
  local c = "f32[nb][" .. n .. "][2]"
  kernel ("fwd" .. n) { pattern = "fft", size = n, block = "auto",
    params = { { "x", c }, { "y", c, access = "out" } }, input = "x", output = "y" }
  kernel ("ifwd" .. n) { pattern = "fft", size = n, block = "auto",
    params = { { "z", c, access = "inout" } }, input = "z", output = "z" }
  kernel ("inv" .. n) { pattern = "fft", size = n, block = "auto", direction = "inverse",
    params = { { "z", c, access = "inout" } }, input = "z", output = "z" }
  kernel ("gain" .. n) { pattern = "for", range = { "nb", n, 2 },
    params = { { "z", c, access = "inout" } }, body = "z(i, j, k) *= 0.5f;" }
  frame ("round" .. n) {
    params = { { "z", c, space = "mapped" } },
    stages = { { "ifwd" .. n }, { "gain" .. n }, { "inv" .. n } },
  }
  persistent ("p" .. n) { layout = "many_blocks", blocks = 16, commands = { "round" .. n } }
end
chain(384)
chain(512)
