kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "i32[n]" }, { "out", "i32[1]", access = "out" } },
  value = "x(i)", combine = "min(a, b)",
  identity = math.huge,
  into = "out" }
