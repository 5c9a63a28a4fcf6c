kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "#define A 1 \\  \ny(i) = x(i) * A;" }
