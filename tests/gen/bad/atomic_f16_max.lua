kernel "k" {
  pattern = "reduce",
  range = { "n" },
  params = { { "x", "f16[n]" }, { "out", "f16[1]", access = "out" } },
  value = "x(i)",
  into = "out",
  op = "max",
  strategy = "global_atomic",
}
