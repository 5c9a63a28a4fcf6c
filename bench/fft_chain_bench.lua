-- fft_chain_bench: FFT -> filter -> inverse FFT -> energy on a batch of
-- 4096-point c2c f32 signals, as one gpugen frame (one host handshake),
-- against cuFFT + elementwise kernels in a CUDA graph
-- (bench/fft_chain_bench.c, bench/fft_chain_ref.cu).
--   X = FFT(x); X *= H (per frequency, H carries the 1/4096 of the round
--   trip); X = IFFT(X) in place; e = sum over the batch of |X|^2 (f64).
module { name = "fft_chain_bench", targets = { "cuda" } }

local N = 4096
local cplx = "f32[nb][" .. N .. "][2]"

-- The FFT stages on each thread count cuFFTDx has for 4096 points in f32
-- (elements per thread 4096 / block): a persistent kernel's block is its
-- FFTs' block, so each count gets a pair of FFT kernels of its own.
local function ffts(block)
  kernel ("fwd" .. block) { pattern = "fft", size = N, block = block,
    params = { { "x", cplx }, { "X", cplx, access = "out" } }, input = "x", output = "X" }
  kernel ("inv" .. block) { pattern = "fft", size = N, block = block, direction = "inverse",
    params = { { "X", cplx, access = "inout" } }, input = "X", output = "X" }
end

-- the filter: one complex product per element, H broadcast over the batch
kernel "filt" { pattern = "for", range = { "nb", N },
  params = { { "X", cplx, access = "inout" }, { "H", "f32[" .. N .. "][2]" } },
  body = [[
    const float re = X(i, j, 0), im = X(i, j, 1);
    X(i, j, 0) = re * H(j, 0) - im * H(j, 1);
    X(i, j, 1) = re * H(j, 1) + im * H(j, 0);
  ]] }

-- the energy of the whole batch, accumulated in f64 (the peer does too)
kernel "energy" { pattern = "reduce", range = { "nb", N },
  params = { { "X", cplx }, { "e", "f64[1]", access = "out" } },
  value = "(double)X(i, j, 0) * X(i, j, 0) + (double)X(i, j, 1) * X(i, j, 1)", into = "e" }

-- the filter as a team stage: team l filters signal l, X(league_rank,
-- ...) only, so a frame passes each signal from the forward FFT to the
-- filter to the inverse FFT inside one block (block barriers: gpugen
-- explain); one team kernel per block size (team_size = the FFT's block)
local function tfilt(block)
  kernel ("tfilt" .. block) { pattern = "team", league = "nb", team_size = block,
    params = { { "X", cplx, access = "inout" }, { "H", "f32[" .. N .. "][2]" } },
    body = [[
      for (long long j = team_rank; j < ]] .. N .. [[; j += team_size) {
        const float re = X(league_rank, j, 0), im = X(league_rank, j, 1);
        X(league_rank, j, 0) = re * H(j, 0) - im * H(j, 1);
        X(league_rank, j, 1) = re * H(j, 1) + im * H(j, 0);
      }
    ]] }
end

-- the energy as a team reduction: team l adds up signal l's |X|^2 and
-- contributes it; the kernel combines the teams' parts itself (a ticket:
-- the last block to finish adds them), so it too reads X only in its own
-- item and needs no grid barrier before it
local function tenergy(block)
  kernel ("tenergy" .. block) { pattern = "team", league = "nb", team_size = block,
    params = { { "X", cplx }, { "e", "f64[1]", access = "out" } }, op = "sum", into = "e",
    body = [[
      double s = 0.0;
      for (long long j = team_rank; j < ]] .. N .. [[; j += team_size) {
        const double re = X(league_rank, j, 0), im = X(league_rank, j, 1);
        s += re * re + im * im;
      }
      contribute(s);
    ]] }
end

-- The chain fused into the FFTs: the filter is the forward FFT's post
-- statements and the energy what the inverse FFT's post statements
-- contribute(), each on the value in the registers that hold it after the
-- transform - no filter or energy pass over memory, no block barrier
-- for them (fused<threads>)
local function fused(block)
  kernel ("fwdp" .. block) { pattern = "fft", size = N, block = block,
    params = { { "x", cplx }, { "X", cplx, access = "out" }, { "H", "f32[" .. N .. "][2]" } },
    input = "x", output = "X",
    post = [[
      const float r = re * H(i, 0) - im * H(i, 1);
      im = re * H(i, 1) + im * H(i, 0);
      re = r;
    ]] }
  kernel ("invp" .. block) { pattern = "fft", size = N, block = block, direction = "inverse",
    params = { { "X", cplx, access = "inout" }, { "e", "f64[1]", access = "out" } },
    input = "X", output = "X", into = "e",
    post = "contribute((double)re * re + (double)im * im);" }
  frame ("fused" .. block) {
    params = { { "x", cplx }, { "X", cplx }, { "H", "f32[" .. N .. "][2]" }, { "e", "f64[1]" } },
    stages = { { "fwdp" .. block }, { "invp" .. block } },
    result = "e",
  }
end

-- The whole chain as one round-trip FFT (roundtrip<threads>): the
-- forward FFT, the filter as between statements on the spectrum in
-- registers, the inverse FFT, the energy as post statements - x read
-- once, X written once, one stage
local function roundtrip(block, name)
  name = name or block
  kernel ("rtp" .. name) { pattern = "fft", size = N, block = block,
    params = { { "x", cplx }, { "X", cplx, access = "out" }, { "H", "f32[" .. N .. "][2]" },
      { "e", "f64[1]", access = "out" } },
    input = "x", output = "X", into = "e",
    between = [[
      const float r = re * H(i, 0) - im * H(i, 1);
      im = re * H(i, 1) + im * H(i, 0);
      re = r;
    ]],
    post = "contribute((double)re * re + (double)im * im);" }
  frame ("roundtrip" .. name) {
    params = { { "x", cplx }, { "X", cplx }, { "H", "f32[" .. N .. "][2]" }, { "e", "f64[1]" } },
    stages = { { "rtp" .. name } },
    result = "e",
  }
end

-- One frame per FFT thread count (chain<threads>: the team filter and the
-- team energy, no grid barrier at all), and chainf512 with the for filter
-- and the reduce energy (3 grid barriers); the energy returns in the
-- frame's acknowledgement (every other view is in device memory: no
-- fence).
local function chain(name, block, filter, energy)
  frame (name) {
    params = { { "x", cplx }, { "X", cplx }, { "H", "f32[" .. N .. "][2]" }, { "e", "f64[1]" } },
    stages = { { "fwd" .. block }, { filter }, { "inv" .. block }, { energy } },
    result = "e",
  }
end
for _, b in ipairs { 256, 512, 1024 } do
  ffts(b) tfilt(b) tenergy(b)
  chain("chain" .. b, b, "tfilt" .. b, "tenergy" .. b)
  fused(b)
  roundtrip(b)
end
chain("chainf512", 512, "filt", "energy")

-- One block per batch item (16) on 256, 512 and 1024 threads (16, 8, 4
-- elements per thread).  The bench also opens b512 on one block per SM
-- (gg_session_options.blocks); "all co-resident" would be up to 4 blocks
-- of 512 per SM here, each one more arrival at every grid barrier.
persistent "b256" { layout = "many_blocks", blocks = 16, block = 256,
  commands = { "chain256", "fused256", "roundtrip256" } }
persistent "b512" { layout = "many_blocks", blocks = 16, block = 512,
  commands = { "chain512", "chainf512", "fused512", "roundtrip512" } }
persistent "b1024" { layout = "many_blocks", blocks = 16, block = 1024,
  commands = { "chain1024", "fused1024", "roundtrip1024" } }

-- The round trip once more with block = "auto": gpugen adds the kernel,
-- the frame and the persistent kernel on each other thread count cuFFTDx
-- has for 4096 points (roundtrip_auto_threads<t> on ba_threads<t>), and
-- the bench's second auto row tunes "roundtrip_auto" with nothing named:
-- what a user writes instead of the three kernels and persistent kernels
-- above.
roundtrip("auto", "_auto")
persistent "ba" { layout = "many_blocks", blocks = 16, commands = { "roundtrip_auto" } }
