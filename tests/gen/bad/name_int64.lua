kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "out" }, { "int64_t", "i64" } },
  body = "x(i) = 1;",
}
