kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "i64[n]" }, { "o", "i64[1]", access = "out" } },
  value = "x(i)", combine = "a * b", identity = 0.5, into = "o" }
