-- One team per row: every thread folds a strided part of the row, then
-- team_sum / team_min / team_max combine the team's values; every thread
-- gets the result, thread 0 writes it.
kernel "row_stats" {
  pattern = "team", league = "rows", team_size = 128,
  params  = {
    { "A",    "f32[rows][cols]" },
    { "sumsq", "f32[rows]", access = "out" },
    { "lo",   "f32[rows]", access = "out" },
    { "hi",   "f32[rows]", access = "out" },
  },
  body = [[
    float s = 0.0f, mn = A(league_rank, 0), mx = mn;
    for (long long c = team_rank; c < cols; c += team_size) {
      const float v = A(league_rank, c);
      s += v * v;
      mn = fminf(mn, v);
      mx = fmaxf(mx, v);
    }
    s  = team_sum(s);     /* every thread of the team calls them */
    mn = team_min(mn);
    mx = team_max(mx);
    if (team_rank == 0) {
      sumsq(league_rank) = s;
      lo(league_rank) = mn;
      hi(league_rank) = mx;
    }
  ]],
}
