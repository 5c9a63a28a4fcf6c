kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#define f\u00e9(v) (v)
    y(i) = x(i);]] }
