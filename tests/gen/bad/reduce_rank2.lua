kernel "k" {
  pattern = "reduce",
  range = { "n", "n" },
  params = { { "x", "f32[n][n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)",
  into = "out",
}
