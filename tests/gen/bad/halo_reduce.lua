module { name = "m" }
kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "e", "f32[1]", access = "out" } },
  value = "x(i)", into = "e" }
