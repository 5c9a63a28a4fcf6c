-- matmul64: C = A * B for 64 x 64 floats (pattern "team").
-- One team per 32x32 tile of C; each thread computes one element.  The
-- tiles of A and B are staged in scratch (shared) memory.
kernel "matmul64" {
  pattern   = "team",
  league    = 4,   -- (64/32)^2 tiles of C
  team_size = 1024,                   -- 32 x 32 threads
  params    = {
    { "A", "f32[64][64]" },
    { "B", "f32[64][64]" },
    { "C", "f32[64][64]", access = "out" },
  },
  scratch   = { { "As", "f32[32][32]" }, { "Bs", "f32[32][32]" } },
  body = [[
    const int T = 64 / 32;                       /* tiles per row */
    const int ty = team_rank / 32, tx = team_rank % 32;
    const int row = (league_rank / T) * 32 + ty, col = (league_rank % T) * 32 + tx;
    float acc = 0.0f;
    for (int t = 0; t < T; t++) {
      As(ty, tx) = A(row, t * 32 + tx);
      Bs(ty, tx) = B(t * 32 + ty, col);
      team_barrier();
      for (int e = 0; e < 32; e++) acc += As(ty, e) * Bs(e, tx);
      team_barrier();                            /* before the next tile overwrites */
    }
    C(row, col) = acc;
  ]],
}
