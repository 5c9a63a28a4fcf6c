kernel "k" {
  pattern = "for", range = { "n" },
  params = {
    { "x", "f32[n]", access = "out" },
    { "X", "f32" },
  },
  body = "x(i) = X;",
}
