kernel "r" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n][3]", layout = "left" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
