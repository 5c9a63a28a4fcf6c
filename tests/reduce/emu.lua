-- Kernels for the host-emulation test (test_reduce_emu): every reduce
-- strategy x operator on i32 and f64, scans, tiles.  Names: e_<s>_<op>_<t>.
module { name = "reduce_emu", targets = { "cuda" } }
local strategies = { "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic" }
for _, s in ipairs(strategies) do
  for _, t in ipairs({ "i32", "f64" }) do
    for _, op in ipairs({ "sum", "min", "max", "prod" }) do
      kernel ("e_" .. s .. "_" .. op .. "_" .. t) {
        pattern = "reduce", range = { "n" },
        params = { { "x", t .. "[n]" }, { "out", t .. "[1]", access = "out" } },
        value = "x(i)", op = op, into = "out", strategy = s, allow_cas = true,
      }
    end
  end
end
kernel "e_moments" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[2]", access = "out" } },
  value = { "x(i)", "x(i) * x(i)" }, op = "sum", into = "out",
}
-- scans: 96-thread blocks (a classic launch runs exactly its block; the
-- persistent body runs pseudo-blocks of up to 96), and 32-thread blocks
-- whose 20000-element scans have 40 (i32) or 79 (u64) tiles, so
-- look-backs cross windows of 32 aggregates; 8-byte sums publish two
-- words per tile state
for _, kind in ipairs({ "inclusive", "exclusive" }) do
  for _, t in ipairs({ "i32", "f64" }) do
    kernel ("s_" .. kind .. "_" .. t) {
      pattern = "scan", kind = kind, range = { "n" }, block = 96,
      params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
      value = "x(i)", into = "y",
    }
  end
end
for _, t in ipairs({ "i32", "u64" }) do
  kernel ("s_inclusive_" .. t .. "_b32") {
    pattern = "scan", kind = "inclusive", range = { "n" }, block = 32,
    params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
    value = "x(i)", into = "y",
  }
end
for _, tile in ipairs({ 2, 3, 16, 33, 100, 1024 }) do
  kernel ("t_" .. tile) {
    pattern = "tile_reduce", tile = tile, range = { "n" },
    params = { { "x", "i32[n]" }, { "out", "i32[nt]", access = "out" } },
    value = "x(i)", op = "sum", into = "out",
  }
end

-- 2-D and 3-D ranges (run-time extents, both layouts; a static 5x7x9),
-- values with their own operators, and the index of the minimum through
-- a packed u64 key (docs/language.md), on every strategy.  A value that
-- weighs each index differently catches a wrong index decode.
for _, s in ipairs(strategies) do
  kernel ("md2_" .. s) {
    pattern = "reduce", range = { "m", "n" },
    params = { { "y", "i64[m]" }, { "A", "i64[m][n]" }, { "x", "i64[n]" }, { "out", "i64[1]", access = "out" } },
    value = "y(i) * A(i, j) * x(j)", into = "out", strategy = s, allow_cas = true,
  }
  kernel ("md3_" .. s) {
    pattern = "reduce", range = { "a", "b", "c" }, index = { "p", "q", "r" },
    params = { { "T", "i64[a][b][c]", layout = "left" }, { "out", "i64[1]", access = "out" } },
    value = "T(p, q, r) * (1 + p + 3 * q + 7 * r)", into = "out", strategy = s, allow_cas = true,
  }
  kernel ("md3s_" .. s) {
    pattern = "reduce", range = { 5, 7, 9 },
    params = { { "T", "i64[5][7][9]" }, { "out", "i64[2]", access = "out" } },
    value = { "T(i, j, k) * (1 + i + 3 * j + 7 * k)", "T(i, j, k)" }, op = { "sum", "max" },
    into = "out", strategy = (s == "global_atomic" or s == "shared_atomic") and "auto" or s,
  }
  if s ~= "global_atomic" and s ~= "shared_atomic" then
    kernel ("mixed_" .. s) {
      pattern = "reduce", range = { "n" },
      params = { { "x", "i32[n]" }, { "out", "i32[4]", access = "out" } },
      value = { "x(i)", "x(i)", "x(i)", "x(i) % 3 == 0 ? 2 : 1" }, op = { "min", "max", "sum", "prod" },
      into = "out", strategy = s,
    }
  end
  kernel ("minloc_" .. s) {
    pattern = "reduce", range = { "n" },
    params = { { "x", "i32[n]" }, { "out", "u64[1]", access = "out" } },
    value = "(unsigned long long)((unsigned)x(i) ^ 0x80000000u) << 32 | (unsigned long long)i",
    op = "min", into = "out", strategy = s, allow_cas = true,
  }
end

-- Team reduces: every thread contributes each of its row's elements,
-- weighted by the row (a wrong league rank weighs the wrong row), on
-- every block strategy; one kernel with one operator per element.
for _, s in ipairs({ "warp_shuffle", "shared_tree", "cg_tile", "deterministic" }) do
  for _, op in ipairs({ "sum", "max" }) do
    for _, t in ipairs({ "i64", "f64" }) do
      kernel ("team_" .. s .. "_" .. op .. "_" .. t) {
        pattern = "team", league = "rows", team_size = 32,
        params = { { "A", t .. "[rows][cols]" }, { "out", t .. "[1]", access = "out" } },
        op = op, into = "out", strategy = s,
        body = [[
          for (long long c = team_rank; c < cols; c += team_size)
            contribute(A(league_rank, c) * (1 + league_rank % 5));
        ]],
      }
    end
  end
end
kernel "team_mixed" {
  pattern = "team", league = "rows", team_size = 32,
  params = { { "A", "i64[rows][cols]" }, { "out", "i64[3]", access = "out" } },
  op = { "min", "max", "sum" }, into = "out",
  body = [[
    if (team_rank >= cols) return;   /* contributes nothing: the identity */
    for (long long c = team_rank; c < cols; c += team_size) contribute(A(league_rank, c), A(league_rank, c), 1);
  ]],
}

-- for kernels whose views, read at the own index only, are staged
-- (gen/plan.c, plan_staging: loads of several grid-stride steps before
-- their bodies).  The emulator's small grids give a thread up to 313
-- steps, so full and partial rounds of steps and tails inside a vector
-- all run.  f_affine: an inout and an in view staged, a `return;` that
-- leaves x and z as they were, and an out view written on some indices
-- only; f_vec: vector 2 of i64 (4 steps); f_md: a 2-D range, views of
-- both layouts.
kernel "f_affine" {
  pattern = "for", range = { "n" },
  params = { { "x", "i32[n]", access = "inout" }, { "y", "i32[n]" }, { "z", "i32[n]", access = "out" } },
  body = [[
    if (y(i) % 5 == 0) return;
    x(i) = x(i) * 3 + y(i);
    if (y(i) % 2 == 0) z(i) = x(i) - 1;
  ]],
}
kernel "f_vec" {
  pattern = "for", range = { "n" }, vector = 2,
  params = { { "x", "i64[n]", access = "inout" } }, body = "x(i) = x(i) * 2 + 1;",
}
kernel "f_md" {
  pattern = "for", range = { "m", "n" },
  params = { { "A", "i32[m][n]", access = "inout" }, { "B", "i32[m][n]", layout = "left" } },
  body = "A(i, j) += 7 * B(i, j);",
}
