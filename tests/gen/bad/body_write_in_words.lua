kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } },
  -- a word before x (and, else) declares no local named x: line 7 writes the view
  body = [[
    y(i) = y(i) > 0 and x(i) > 0;
    if (y(i)) y(i) = 1; else x(i) = 2;
  ]],
}
