kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", combine = "a + b",
  identity = "0.0f \\", into = "out" }
