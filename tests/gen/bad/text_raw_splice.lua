kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "const char *s = R\"(x\\\n)\"; y(i) = x(i);" }
