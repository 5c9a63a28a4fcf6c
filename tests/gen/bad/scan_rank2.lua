kernel "k" {
  pattern = "scan",
  range = { "n", "m" },
  params = { { "x", "f32[n][m]" }, { "y", "f32[n]", access = "out" } },
  value = "x(i, j)", into = "y",
}
