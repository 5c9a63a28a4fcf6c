-- Frames whose stages hand data over inside league items: an fft and a
-- team stage on the same league, each touching a view only in its own
-- item, need a block barrier between them, not a grid one (gpugen
-- explain says which and why).  The last stage reduces across items: a
-- grid barrier.
module { name = "frame_items", targets = { "cuda" } }

local cplx = "f32[nb][64][2]"
kernel "fwd" { pattern = "fft", size = 64, block = 32,
  params = { { "x", cplx }, { "X", cplx, access = "out" } }, input = "x", output = "X" }
kernel "inv" { pattern = "fft", size = 64, block = 32, direction = "inverse",
  params = { { "X", cplx, access = "inout" } }, input = "X", output = "X" }
-- each team scales its own item: X(league_rank, ...) only
kernel "gain" { pattern = "team", league = "nb", team_size = 32,
  params = { { "X", cplx, access = "inout" }, { "H", "f32[64]" } },
  body = [[
    for (long long j = team_rank; j < 64; j += team_size) {
      X(league_rank, j, 0) *= H(j);
      X(league_rank, j, 1) *= H(j);
    }
  ]] }
-- reads the next item as well: its data may come from another block
kernel "mix" { pattern = "team", league = "nb", team_size = 32,
  params = { { "X", cplx, access = "inout" } },
  body = [[
    const long long o = league_rank + 1 < league_size ? league_rank + 1 : league_rank;
    for (long long j = team_rank; j < 64; j += team_size)
      X(league_rank, j, 0) += 0.5f * X(o, j, 1);
  ]] }
kernel "energy" { pattern = "reduce", range = { "nb", 64 },
  params = { { "X", cplx }, { "e", "f64[1]", access = "out" } },
  value = "(double)X(i, j, 0) * X(i, j, 0) + (double)X(i, j, 1) * X(i, j, 1)", into = "e" }

local fparams = { { "x", cplx }, { "X", cplx }, { "H", "f32[64]" }, { "e", "f64[1]" } }
-- fwd | gain | inv: block barriers; energy: a grid barrier
frame "items" { params = fparams, stages = { { "fwd" }, { "gain" }, { "inv" }, { "energy" } } }
-- mix reads another item's X: a grid barrier before it, and before inv
frame "across" { params = { fparams[1], fparams[2], fparams[4] }, stages = { { "fwd" }, { "mix" }, { "inv" }, { "energy" } } }

persistent "p" { layout = "many_blocks", block = 32, commands = { "items", "across" } }
