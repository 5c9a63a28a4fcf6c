kernel "k" {
  pattern = "reduce",
  range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = { "1", "2", "3", "4", "5", "6", "7", "8", "9" },
  into = "out",
}
