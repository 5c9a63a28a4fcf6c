kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  body = "x(i) += 1.0f; const char *s = \"a" .. string.char(255) .. "b\"; (void)s;" }
