kernel "k" {
  pattern = "for", range = { "n", "m" }, index = { "i", "j" },
  params = { { "u", "f32[n]" }, { "a", "f32[n][m]", access = "out" } },
  body = [[
    a(min(i, j), j) = u((i, j));   // nested parentheses: one index each
    a(i, j) += u(i, j);
  ]],
}
