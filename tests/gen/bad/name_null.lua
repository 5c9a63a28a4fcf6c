kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "NULL", "f32" },
    { "x", "f32[n]", access = "out" },
  },
  body = "x(i) = NULL;",
}
