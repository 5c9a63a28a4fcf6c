kernel "a" { "for", pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "out" } }, body = "x(i) = 0;" }
