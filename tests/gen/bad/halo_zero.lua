module { name = "m" }
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 0 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);" }
