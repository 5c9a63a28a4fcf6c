-- a constant extent larger than its max
kernel "k" { pattern = "for", range = { 100 },
  params = { { "x", "f32[100]" }, { "y", "f32[100]", access = "out" } }, body = "y(i) = x(i);" }
frame "f" { params = { { "x", "f32[100]", space = "slot", max = 50 }, { "y", "f32[100]" } },
  stages = { { "k" } } }
