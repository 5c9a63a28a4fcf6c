kernel "t" {
  pattern = "team",
  params = { { "A", "f32[32]" } },
  league = 4,
  team_size = 2048,
  body = "A(team_rank) = 0;",
}
