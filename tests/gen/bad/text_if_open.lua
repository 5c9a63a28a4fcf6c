kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#if 0
    y(i) = x(i);]] }
