kernel "k" {
  pattern = "scan",
  range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[m]", access = "out" } },
  value = "x(i)",
  into = "y",
}
