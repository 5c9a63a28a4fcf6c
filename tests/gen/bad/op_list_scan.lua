kernel "k" {
  pattern = "scan", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  value = "x(i)",
  op = { "sum" },
  into = "y",
}
