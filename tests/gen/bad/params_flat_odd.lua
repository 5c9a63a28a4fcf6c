kernel "k" {
  pattern = "for", range = { "n" },
  params = { "x", "f64[n]", "y" },
  body = "x(i) = 1;",
}
