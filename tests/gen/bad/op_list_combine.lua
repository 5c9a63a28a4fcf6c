kernel "k" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "i32[n]" }, { "out", "i32[2]", access = "out" } },
  value = { "x(i)", "x(i)" }, combine = "a + b", identity = 0,
  op = { "min", "max" }, into = "out",
}
