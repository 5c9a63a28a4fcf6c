kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
    _Pragma("unroll") for (int r = 0; r < 2; ++r) y(i) = x(i);]] }
