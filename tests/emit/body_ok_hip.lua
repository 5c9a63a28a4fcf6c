-- Identifiers hiprtc takes and NVRTC does not: '$' and UTF-8 letters.
-- A name ending in a view's name is not that view: $x(a, b) and éx(a, b)
-- call lambdas, not the rank-1 view x.
module { name = "body_ok_hip", targets = { "hip" } }

kernel "ids" {
  pattern = "for", range = { "n" },
  params  = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body    = [[
    auto $x = [](long long a, long long b) { return (float)(a + b); };
    auto éx = [](long long a, long long b) { return (float)(a - b); };
    y(i) = $x(i, 1) + éx(i, 2) + x(i);
  ]],
}
