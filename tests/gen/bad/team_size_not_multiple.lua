kernel "t" {
  pattern = "team",
  params = { { "A", "f32[32]" } },
  league = 4,
  team_size = 48,
  body = "A(team_rank) = 0;",
}
