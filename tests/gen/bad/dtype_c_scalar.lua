kernel "k" {
  pattern = "for",
  range = { "n" },
  params = { { "a", "unsigned long long" }, { "y", "u64[n]", access = "out" } },
  body = "y(i) = a;",
}
