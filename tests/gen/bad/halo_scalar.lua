module { name = "m" }
kernel "k" { pattern = "for", range = { "n" },
  params = { { "a", "f32", halo = 1 }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = a * x(i);" }
