-- the same directive in a reduction's value, outside any #if
kernel "r" { pattern = "reduce", op = "sum", range = { "n" },
  params = { { "x", "f32[n]" }, { "s", "f32[1]", access = "out" } },
  value = [[x(i)
#elifdef X
]], into = "s" }
