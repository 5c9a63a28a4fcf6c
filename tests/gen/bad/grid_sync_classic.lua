kernel "k" {
  pattern = "reduce",
  range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)",
  into = "out",
  strategy = "grid_sync",
  launch = "classic",
}
