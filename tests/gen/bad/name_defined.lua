kernel "k" {
  pattern = "for", range = { 4 },
  params = { { "defined", "f32[4]", access = "out" } },
  body = "",
}
