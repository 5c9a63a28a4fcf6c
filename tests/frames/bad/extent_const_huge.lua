kernel "tk" { pattern = "team", league = "nt", team_size = 32,
  params = { { "x", "f32[8]", access = "inout" } }, body = "if (team_rank == 0) x(0) += 1;" }
-- nt, bound to a number, is known when the kernel is generated: at most 2^48
frame "f" { params = { { "x", "f32[8]" } }, stages = { { "tk", nt = 281474976710657 } } }
