kernel "k" { pattern = "reduce", op = "sum", range = { "n" },
  params = { { "x", "f32[n]" }, { "e", "f32[1]", access = "out" } },
  value = "x(i)); e(0) = 7.0f; (0",
  into = "e" }
