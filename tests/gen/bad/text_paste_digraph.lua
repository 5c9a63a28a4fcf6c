kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
    y(i) = x(i);
#define HAS __has_%:%:include
#if HAS("/etc/hostname")
    y(i) = 0;
#endif
#undef HAS]] }
