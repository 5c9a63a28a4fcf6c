kernel "k" {
  pattern = "for", range = { "n" },
  params = { "x", "f64[n]", "y", "f64[n]" },
  body = "y(i) = x(i);",
}
