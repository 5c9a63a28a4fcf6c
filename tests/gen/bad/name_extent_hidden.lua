kernel "k" {
  pattern = "for", range = { "n" },
  params = {
    { "A", "f32[n][4]", access = "out" },
    { "A_e1", "i64" },
  },
  body = "A(i, 0) = 1;",
}
