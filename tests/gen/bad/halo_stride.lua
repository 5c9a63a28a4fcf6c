module { name = "m" }
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1, layout = "stride" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);" }
