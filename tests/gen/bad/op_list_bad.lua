kernel "k" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[2]", access = "out" } },
  value = { "x(i)", "x(i)" },
  op = { "min", "avg" },
  into = "out",
}
