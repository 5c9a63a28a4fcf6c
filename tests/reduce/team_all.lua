-- Team reduces for test_team_reduce_gpu (and compiled with NVRTC and
-- hiprtc by team_all_check_both): sum and max on i64 and f64 at team
-- sizes 32, 128 and 1024; scratch in use while other warps combine; the
-- deterministic strategy; and two persistent kernels running them as
-- commands.  Every thread contributes its row's elements, weighted by
-- the row (a wrong league rank weighs the wrong row).
for _, ts in ipairs({ 32, 128, 1024 }) do
  for _, op in ipairs({ "sum", "max" }) do
    for _, t in ipairs({ "i64", "f64" }) do
      kernel ("tr_" .. op .. "_" .. t .. "_" .. ts) {
        pattern = "team", league = "rows", team_size = ts,
        params = { { "A", t .. "[rows][cols]" }, { "out", t .. "[1]", access = "out" } },
        op = op, into = "out",
        body = [[
          for (long long c = team_rank; c < cols; c += team_size)
            contribute(A(league_rank, c) * (1 + league_rank % 5));
        ]],
      }
    end
  end
end

-- The row through scratch, each thread reading back another's element
-- after the barrier: the reduction's shared memory must not overlap it.
kernel "tr_scratch" {
  pattern = "team", league = "rows", team_size = 128,
  params = { { "A", "f64[rows][cols]" }, { "out", "f64[2]", access = "out" } },
  scratch = { { "row", "f64[128]" } },
  op = { "sum", "max" }, into = "out",
  body = [[
    for (long long c0 = 0; c0 < cols; c0 += team_size) {
      const long long c = c0 + team_rank;
      row(team_rank) = c < cols ? A(league_rank, c) * (1 + league_rank % 5) : 0.0;
      team_barrier();
      const int o = (team_rank + 1) % team_size;
      if (c0 + o < cols) contribute(row(o), row(o));
      team_barrier();
    }
  ]],
}

kernel "tr_det" {
  pattern = "team", league = "rows", team_size = 128, strategy = "deterministic",
  params = { { "A", "f64[rows][cols]" }, { "out", "f64[1]", access = "out" } },
  into = "out",
  body = [[
    for (long long c = team_rank; c < cols; c += team_size)
      contribute(A(league_rank, c) * (1 + league_rank % 5));
  ]],
}

persistent "tr_one" { layout = "one_block", block = 128,
  commands = { "tr_sum_f64_128", "tr_max_i64_128" } }
persistent "tr_many" { layout = "many_blocks", block = 128, blocks = 6,
  commands = { "tr_sum_f64_128", "tr_max_i64_128" } }
