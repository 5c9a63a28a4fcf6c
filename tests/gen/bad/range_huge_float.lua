-- 2^63 is a whole float past a 64-bit integer
kernel "k" { pattern = "for", range = { 2^63 },
  params = { { "y", "f32[4]", access = "out" } }, body = "y(0) = 1;" }
