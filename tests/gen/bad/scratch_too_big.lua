kernel "t" {
  pattern = "team",
  params = { { "A", "f32[32]" } },
  league = 4,
  team_size = 64,
  scratch = { { "S", "f64[128][64]" } },
  body = "A(team_rank) = 0;",
}
