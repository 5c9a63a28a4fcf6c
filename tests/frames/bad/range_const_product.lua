kernel "outer" { pattern = "for", range = { "a", "b" },
  params = { { "p", "f32[a]" }, { "q", "f32[b]" }, { "y", "f32[1]", access = "inout" } },
  body = "if (i == 0 && j == 0) y(0) = p(0) * q(0);" }
-- each extent within 2^48, the range they make (2^48 + 2^24 indices) not
frame "f" { params = { { "p", "f32[16777216]" }, { "q", "f32[16777217]" }, { "y", "f32[1]" } },
  stages = { { "outer" } } }
