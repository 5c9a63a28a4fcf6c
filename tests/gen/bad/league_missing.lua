kernel "t" {
  pattern = "team",
  params = { { "A", "f32[32]" } },
  team_size = 64,
  body = "A(team_rank) = 0;",
}
