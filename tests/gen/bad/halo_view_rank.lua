module { name = "m" }
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n][4]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i, 0);" }
