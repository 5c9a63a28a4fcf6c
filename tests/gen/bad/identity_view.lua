kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", combine = "a > b ? a : b",
  identity = "x(0)", into = "out" }
