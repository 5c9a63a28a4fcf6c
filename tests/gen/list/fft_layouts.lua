-- fft views of every layout (docs/language.md "Reference: fft"): right
-- (contiguous) keeps its data paths - c2c through registers, r2c / c2r
-- through shared memory as contiguous runs - and left or stride views go
-- through shared memory element by element at the views' own addresses
-- (gpugen explain says which).  In frames, a left view's item b is only
-- item b's elements, so fft and team stages hand it over with a block
-- barrier; a stride view may alias two items (run-time strides): a grid
-- barrier.
module { name = "fft_layouts", targets = { "cuda" } }

local cl = { "f32[nb][64][2]", layout = "left" }
local cs = { "f32[nb][64][2]", layout = "stride" }
local function v(name, t, access) return { name, t[1], layout = t.layout, access = access } end

kernel "right_c2c" { pattern = "fft", size = 64, block = 32,
  params = { { "x", "f32[nb][64][2]" }, { "y", "f32[nb][64][2]", access = "out" } },
  input = "x", output = "y" }
kernel "right_r2c" { pattern = "fft", size = 64, type = "r2c", block = 32,
  params = { { "x", "f32[nb][64]" }, { "y", "f32[nb][33][2]", access = "out" } },
  input = "x", output = "y" }
-- left input, contiguous output: both through the views
kernel "left_c2c" { pattern = "fft", size = 64, block = 32,
  params = { v("x", cl), { "y", "f32[nb][64][2]", access = "out" } }, input = "x", output = "y" }
-- in place through a stride view (cuFFT's istride / idist at run time)
kernel "stride_inplace" { pattern = "fft", size = 100, direction = "inverse",
  params = { { "z", "f64[nb][100][2]", layout = "stride", access = "inout" } },
  input = "z", output = "z" }
kernel "stride_r2c" { pattern = "fft", size = 1000, type = "r2c",
  params = { { "x", "f32[nb][1000]", layout = "stride" },
    { "y", "f32[nb][501][2]", layout = "stride", access = "out" } }, input = "x", output = "y" }
-- one FFT, no batch extent: the rank-1 left output is contiguous, but the
-- complex left input [161][2] is two planes (re, then im): the views
kernel "one_c2r" { pattern = "fft", size = 320, type = "c2r",
  params = { { "X", "f64[161][2]", layout = "left" }, { "y", "f64[320]", layout = "left", access = "out" } },
  input = "X", output = "y" }

-- frames: fft -> team gain -> inverse fft on one view X
local function gain(name, t)
  kernel (name) { pattern = "team", league = "nb", team_size = 32,
    params = { v("X", t, "inout"), { "H", "f32[64]" } },
    body = [[
      for (long long j = team_rank; j < 64; j += team_size) {
        X(league_rank, j, 0) *= H(j);
        X(league_rank, j, 1) *= H(j);
      }
    ]] }
end
local function pair(prefix, t)
  kernel (prefix .. "_fwd") { pattern = "fft", size = 64, block = 32,
    params = { v("x", t), v("X", t, "out") }, input = "x", output = "X" }
  kernel (prefix .. "_inv") { pattern = "fft", size = 64, block = 32, direction = "inverse",
    params = { v("X", t, "inout") }, input = "X", output = "X" }
  gain(prefix .. "_gain", t)
  frame (prefix .. "_items") { params = { v("x", t), v("X", t), { "H", "f32[64]" } },
    stages = { { prefix .. "_fwd" }, { prefix .. "_gain" }, { prefix .. "_inv" } } }
end
pair("left", cl)    -- block barriers
pair("stride", cs)  -- grid barriers

persistent "p" { layout = "many_blocks", block = 32,
  commands = { "left_c2c", "left_items", "stride_items" } }
