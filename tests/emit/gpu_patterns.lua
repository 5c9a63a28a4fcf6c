-- for and team kernels checked on the GPU against a CPU reference
-- (tests/emit/test_gpu_patterns.c), at sizes that are not powers of two.
module { name = "gpu_patterns", targets = { "cuda", "hip" } }

-- rank 3, row-major: the index decode must give every (i, j, k) once
kernel "fill3" {
  pattern = "for",
  range   = { "a", "b", "c" },
  params  = {
    { "s", "f64" },
    { "X", "f64[a][b][c]", access = "in" },
    { "Y", "f64[a][b][c]", access = "inout" },
  },
  body = "Y(i, j, k) += s * X(i, j, k) + i * 10000.0 + j * 100.0 + k;",
}

-- rank 2, column-major, vector 4 and 8 items per thread
kernel "left2" {
  pattern = "for",
  range   = { "n", "m" },
  vector  = 4,
  items   = 8,
  params  = {
    { "U", "i32[n][m]", layout = "left", access = "out" },
  },
  body = "if (i == 3) return;  /* return skips one index */ U(i, j) = (int)(i * 1000 + j);",
}

-- rank 2 through explicit strides
kernel "strided" {
  pattern = "for",
  range   = { "n", "m" },
  params  = {
    { "S", "f32[n][m]", layout = "stride", access = "out" },
  },
  body = "S(i, j) = (float)(i - 2 * j);",
}

-- teams of 96 threads (3 warps, 1.5 wavefronts) over a run-time league
kernel "rowstats" {
  pattern   = "team",
  league    = "rows",
  team_size = 96,
  params    = {
    { "X", "f64[rows][96]", access = "in" },
    { "out", "f64[rows][3]", access = "out" },
  },
  scratch   = { { "tmp", "f64[96]" } },
  body = [[
    tmp(team_rank) = X(league_rank, team_rank);
    team_barrier();
    double mine = tmp(95 - team_rank);        /* read a neighbour's scratch */
    double s = team_sum(mine);
    double lo = team_min(mine);
    double hi = team_max(mine);
    if (team_rank == 0) {
      out(league_rank, 0) = s;
      out(league_rank, 1) = lo;
      out(league_rank, 2) = hi;
    }
  ]],
}

-- cooperative launch of a for kernel: a co-resident grid covering any n
kernel "coop_scale" {
  pattern = "for",
  launch  = "cooperative",
  range   = { "n" },
  params  = { { "q", "u64[n]", access = "inout" } },
  body    = "q(i) = q(i) * 3ull + 1ull;",
}
