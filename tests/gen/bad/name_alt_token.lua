kernel "k" {
  pattern = "for", range = { "n" },
  index = { "bitand" },
  params = { { "x", "f32[n]", access = "out" } },
  body = "x(bitand) = 1;",
}
