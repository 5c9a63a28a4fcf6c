kernel "k" {
  pattern = "for",
  range = { "n" },
  params = { { "x", "F32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);",
}
