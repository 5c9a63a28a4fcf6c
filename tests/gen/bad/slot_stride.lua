-- a view in the slot is contiguous
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", layout = "stride" }, { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i);" }
frame "f" { params = { { "x", "f32[n]", space = "slot", layout = "stride", max = 10 }, { "y", "f32[n]" } },
  stages = { { "k" } } }
