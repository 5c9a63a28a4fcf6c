kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#define P(s) _Pragma(s)
    y(i) = x(i);]] }
