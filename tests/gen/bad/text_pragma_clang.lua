kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  body = [[
    x(i) += 1.0f;
#pragma clang __debug crash
]] }
