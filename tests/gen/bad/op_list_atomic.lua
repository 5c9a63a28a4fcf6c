kernel "k" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "i32[n]" }, { "out", "i32[2]", access = "out" } },
  value = { "x(i)", "x(i)" }, op = { "min", "max" }, into = "out",
  allow_cas = true,
  strategy = "shared_atomic",
}
