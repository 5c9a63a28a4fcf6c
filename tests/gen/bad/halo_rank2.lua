module { name = "m" }
kernel "k" { pattern = "for", range = { "n", "m" },
  params = { { "x", "f32[n][m]", halo = 1 }, { "y", "f32[n][m]", access = "out" } },
  body = "y(i, j) = x(i, j);" }
