kernel "t" {
  pattern = "team",
  params = { { "A", "f32[32]" } },
  league = 4,
  team_size = 64,
  range = { 4 },
  body = "A(team_rank) = 0;",
}
