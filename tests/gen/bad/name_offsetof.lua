kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "out" }, { "offsetof", "f32" } },
  body = "x(i) = 1;",
}
