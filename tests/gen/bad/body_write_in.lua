kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "x", "f64[n]" }, { "y", "f64[n]", access = "out" } },
  -- line 6 writes x; before it only reads, comments and strings do
  body = [[
    if (x(i) == 0.0 && x(i) <= 1.0 && x (i) >= -1.0) y(i) = 0; // x(i) = 1;
    /* x(i) += 2; */ const char *s = "x(i) = 3"; (void)s; y(i) = x(i) != 2.0;
    x(i)
      *= 2.0;
  ]],
}
