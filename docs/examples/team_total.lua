-- y^T A x with a league of teams: one team per row, and ONE result over
-- every team (Kokkos' parallel_reduce over a TeamPolicy).  Any thread may
-- call contribute(v); out(0) is the sum of every contribution of every
-- team, written by the kernel (nothing to zero first; league 0 writes 0).
kernel "ytax_teams" {
  pattern = "team", league = "rows", team_size = 128,
  params  = {
    { "y", "f64[rows]" }, { "A", "f64[rows][cols]" }, { "x", "f64[cols]" },
    { "out", "f64[1]", access = "out" },
  },
  op = "sum", into = "out",
  body = [[
    double s = 0.0;
    for (long long c = team_rank; c < cols; c += team_size) s += A(league_rank, c) * x(c);
    contribute(y(league_rank) * s);
  ]],
}

-- the largest element of each row and of all rows, and how many are
-- negative: one operator per element of into.
kernel "row_extremes" {
  pattern = "team", league = "rows", team_size = 64,
  params  = {
    { "A", "i64[rows][cols]" },
    { "row_max", "i64[rows]", access = "out" },
    { "total", "i64[2]", access = "out" },
  },
  op = { "max", "sum" }, into = "total",
  body = [[
    long long mx = A(league_rank, 0), neg = 0;
    for (long long c = team_rank; c < cols; c += team_size) {
      mx = A(league_rank, c) > mx ? A(league_rank, c) : mx;
      neg += A(league_rank, c) < 0;
    }
    mx = team_max(mx);
    if (team_rank == 0) row_max(league_rank) = mx;
    contribute(mx, neg);
  ]],
}
