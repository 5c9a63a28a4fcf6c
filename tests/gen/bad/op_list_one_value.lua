-- one value, two operators: counts in the message agree in number
kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = { "min", "max" }, into = "out" }
