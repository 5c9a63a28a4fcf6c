module { name = "m", targets = { "cuda" } }
kernel "use" { pattern = "for", range = { 4 },
  params = { { "x", "f32[4]", access = "in" } },
  body = "(void)x(i);" }
frame "f" { gpus = 2, params = { { "x", "f32[n][300000]" } },
  stages = { { exchange = "halo", view = "x" }, { "use", x = "x" } } }
