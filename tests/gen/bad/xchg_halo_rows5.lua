module { name = "m", targets = { "cuda" } }
kernel "use" { pattern = "for", range = { 5 },
  params = { { "x", "f32[5]", access = "in" } },
  body = "(void)x(i);" }
-- 5 rows, width 2: the rows each end sends (1..2 and 2..3) would overlap
-- the ghost rows (0..1 and 3..4) the same stage writes
frame "f" { gpus = 2, params = { { "x", "f32[5]" } },
  stages = { { exchange = "halo", view = "x", width = 2 }, { "use", x = "x" } } }
