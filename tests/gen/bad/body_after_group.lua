kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "x", "f64[n]" }, { "y", "f64[n]", access = "out" } },
  -- text in #if groups and in arguments of the body's own macros is left
  -- to the compiler; after #endif and outside those arguments line 12 is
  -- checked again
  body = [[
#define SHOW(e) #e
#if 0
    x(i) = 1;
#endif
    const char *s = SHOW(x(i) = 2); (void)s; y(i) = x(i); x(i) = 3;
  ]],
}
