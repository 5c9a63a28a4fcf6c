-- fft (cuFFTDx) checked on the GPU by test_fft_gpu.c against a CPU DFT in
-- double: c2c forward and inverse, r2c and c2r, f32 and f64, at sizes that
-- are not powers of two (12, 100, 240, 320, 1000) and powers of two (16,
-- 256), with a run-time batch; as kernels, as a persistent command, and as
-- the stages of a frame (FFT -> filter -> inverse FFT -> energy), and with
-- the filter and the energy as post statements of the FFTs.
-- Complex data are (re, im) pairs: a view whose last extent is 2.
module { name = "fft_gpu", targets = { "cuda" } }

-- fft(name, N, type, dtype, fields): x -> y, both [nb][...] (complex:
-- [L][2], (re, im) pairs); fields adds direction, block, or one = true
-- (no batch extent: one FFT) or inplace = true (x -> x)
local function fft(name, n, typ, t, fields)
  local function view(len, cplx)
    return t .. (fields.one and "" or "[nb]") .. "[" .. len .. "]" .. (cplx and "[2]" or "")
  end
  local half = n // 2 + 1
  local x = view(typ == "c2r" and half or n, typ ~= "r2c")
  local k = { pattern = "fft", size = n, type = typ, input = "x", output = "y",
    direction = fields.direction, block = fields.block,
    params = { { "x", x }, { "y", view(typ == "r2c" and half or n, typ ~= "c2r"), access = "out" } } }
  if fields.inplace then
    k.params, k.output = { { "x", x, access = "inout" } }, "x"
  end
  kernel (name) (k)
end

fft("c16", 16, "c2c", "f32", { direction = "forward" })
fft("c12i", 12, "c2c", "f32", { direction = "inverse" })
fft("c1000", 1000, "c2c", "f32", {})
fft("z100", 100, "c2c", "f64", { direction = "inverse", inplace = true })
-- a block written out (cuFFTDx has 16, 32, 64, 128 threads for 256 in f64)
fft("z256", 256, "c2c", "f64", { block = 64 })
fft("r240", 240, "r2c", "f32", {})
fft("d100r", 100, "c2r", "f64", {})
fft("r1000", 1000, "c2r", "f32", {})
fft("d12", 12, "r2c", "f64", {})
fft("one", 240, "c2c", "f32", { one = true })
-- 1024 points on the plan's own thread count (256: ept 4), f32 and f64
fft("c1024i", 1024, "c2c", "f32", { direction = "inverse" })
fft("z1024", 1024, "c2c", "f64", { inplace = true })

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

-- the same chain with the filter as a team stage, one team per item
-- touching S(league_rank, ...) only: the frame hands each item from stage
-- to stage inside its block (block barriers, gpugen explain)
kernel "filt_team" { pattern = "team", league = "nb", team_size = 32,
  params = { { "S", "f32[nb][161][2]", access = "inout" }, { "H", "f32[161][2]" } },
  body = [[
    for (long long j = team_rank; j < 161; j += team_size) {
      const float re = S(league_rank, j, 0), im = S(league_rank, j, 1);
      S(league_rank, j, 0) = re * H(j, 0) - im * H(j, 1);
      S(league_rank, j, 1) = re * H(j, 1) + im * H(j, 0);
    }
  ]] }
-- and the energy as a team reduction (each team its own item's part, the
-- kernel adds the parts): no grid barrier in the whole frame
kernel "energy_team" { pattern = "team", league = "nb", team_size = 32,
  params = { { "y", "f32[nb][320]" }, { "e", "f64[1]", access = "out" } }, op = "sum", into = "e",
  body = [[
    double s = 0.0;
    for (long long j = team_rank; j < 320; j += team_size) s += (double)y(league_rank, j) * y(league_rank, j);
    contribute(s);
  ]] }
frame "chain_team" {
  params = { { "x", "f32[nb][320]" }, { "S", "f32[nb][161][2]" }, { "H", "f32[161][2]" },
    { "y", "f32[nb][320]" }, { "e", "f64[1]" } },
  stages = { { "fwd" }, { "filt_team" }, { "inv" }, { "energy_team" } },
}

-- the same chain with no filter or energy stage at all: the filter is the
-- forward FFT's post statements, the energy the inverse's contributions
-- (on shared-memory paths: r2c writes a complex, c2r a real output)
-- statements multiplying each element by the filter's gain H(i)
local filter = [[
  const float r = re * H(i, 0) - im * H(i, 1);
  im = re * H(i, 1) + im * H(i, 0);
  re = r;
]]
kernel "fwd_post" { pattern = "fft", size = 320, type = "r2c",
  params = { { "x", "f32[nb][320]" }, { "S", "f32[nb][161][2]", access = "out" }, { "H", "f32[161][2]" } },
  input = "x", output = "S",
  post = filter }
kernel "inv_post" { pattern = "fft", size = 320, type = "c2r",
  params = { { "S", "f32[nb][161][2]" }, { "y", "f32[nb][320]", access = "out" },
    { "e", "f64[1]", access = "out" } },
  input = "S", output = "y", into = "e", post = "contribute((double)re * re);" }
frame "chain_post" {
  params = { { "x", "f32[nb][320]" }, { "S", "f32[nb][161][2]" }, { "H", "f32[161][2]" },
    { "y", "f32[nb][320]" }, { "e", "f64[1]" } },
  stages = { { "fwd_post" }, { "inv_post" } },
}
-- and a c2c chain of 256 points in registers (the register path's post
-- statements): y = IFFT(H * FFT(x)), e = sum |y|^2 and the largest |y.re|
-- (two values: op is one operator per value)
kernel "cfwd_post" { pattern = "fft", size = 256, block = 32,
  params = { { "x", "f32[nb][256][2]" }, { "S", "f32[nb][256][2]", access = "out" }, { "H", "f32[256][2]" } },
  input = "x", output = "S",
  post = filter }
kernel "cinv_post" { pattern = "fft", size = 256, block = 32, direction = "inverse",
  params = { { "S", "f32[nb][256][2]" }, { "y", "f32[nb][256][2]", access = "out" },
    { "e", "f64[2]", access = "out" } },
  input = "S", output = "y", into = "e", op = { "sum", "max" },
  post = "contribute((double)re * re + (double)im * im, fabs((double)re));" }
frame "chain_c" {
  params = { { "x", "f32[nb][256][2]" }, { "S", "f32[nb][256][2]" }, { "H", "f32[256][2]" },
    { "y", "f32[nb][256][2]" }, { "e", "f64[2]" } },
  stages = { { "cfwd_post" }, { "cinv_post" } },
}

-- the c2c chain as one kernel: a round trip (the forward FFT, the filter
-- as between statements, the inverse FFT back) with the post statements'
-- two-value reduction; in registers, and with x in layout left (through
-- shared memory)
local function round_trip(name, xlayout)
  kernel (name) { pattern = "fft", size = 256, block = 32,
    params = { { "x", "f32[nb][256][2]", layout = xlayout }, { "H", "f32[256][2]" },
      { "y", "f32[nb][256][2]", access = "out" }, { "e", "f64[2]", access = "out" } },
    input = "x", output = "y", into = "e", op = { "sum", "max" },
    between = filter,
    post = "contribute((double)re * re + (double)im * im, fabs((double)re));" }
  frame ("chain_" .. name) {
    params = { { "x", "f32[nb][256][2]", layout = xlayout }, { "H", "f32[256][2]" },
      { "y", "f32[nb][256][2]" }, { "e", "f64[2]" } },
    stages = { { name } },
  }
end
round_trip("rt")
round_trip("rtl", "left")

-- a 256-point c2c FFT on 32 threads (written: its own choice is 128), like
-- the 320-point chain
fft("c256", 256, "c2c", "f32", { block = 32 })

-- strided views (through shared memory, each element at the view's own
-- address).  Left: [nb][N][2] with the batch fastest - items interleaved,
-- re and im two planes of nb * N values (the output of "lc100" is
-- contiguous: the plan moves both sides through the views then).  Stride:
-- strides at run time (the test's C driver gives cuFFT-like istride /
-- idist with padding between items, and a batch-fastest complex side).
local function cview(t, len, layout) return { t .. "[nb][" .. len .. "][2]", layout = layout } end
local function with(name, v, access)
  return { name, v[1], layout = v.layout, access = access }
end
kernel "lc100" { pattern = "fft", size = 100, input = "x", output = "y",
  params = { with("x", cview("f32", 100, "left")), with("y", cview("f32", 100), "out") } }
kernel "lc256i" { pattern = "fft", size = 256, direction = "inverse", block = 32, input = "x", output = "y",
  params = { with("x", cview("f32", 256, "left")), with("y", cview("f32", 256, "left"), "out") } }
kernel "zs120" { pattern = "fft", size = 120, direction = "inverse", input = "x", output = "x",
  params = { with("x", cview("f64", 120, "stride"), "inout") } }
kernel "rs1000" { pattern = "fft", size = 1000, type = "r2c", input = "x", output = "y",
  params = { { "x", "f32[nb][1000]", layout = "stride" }, with("y", cview("f32", 501, "stride"), "out") } }
kernel "ds320" { pattern = "fft", size = 320, type = "c2r", block = 32, input = "x", output = "y",
  params = { with("x", cview("f64", 161, "stride")), { "y", "f64[nb][320]", layout = "stride", access = "out" } } }

persistent "p_strided" { layout = "many_blocks", block = 32, commands = { "lc256i", "ds320" } }

persistent "p_one" { layout = "one_block", block = 32,
  commands = { "c256", "chain", "chain_team", "chain_post", "chain_c", "chain_rt", "chain_rtl" } }
persistent "p_many" { layout = "many_blocks", block = 32,
  commands = { "c256", "chain", "chain_team", "chain_post", "chain_c", "chain_rt", "chain_rtl" } }
persistent "p_wide" { layout = "many_blocks", block = 256, commands = { "c1024i", "z1024" } }
