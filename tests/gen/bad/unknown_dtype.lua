kernel "k" {
  pattern = "for",
  range = { "n" },
  params = { { "x", "f31[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);",
}
