kernel "k" {
  pattern = "for",
  range = { "n" },
  params = { { "x", "double[n]" }, { "y", "f64[n]", access = "out" } },
  body = "y(i) = x(i);",
}
