-- Numbers bound to a stage's scalars become C literals of the scalar's
-- type: -0.0 keeps its sign (a floating literal, not the integer -0),
-- the smallest i64 is written so that no literal overflows.
kernel "affine" { pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "b", "f64" }, { "c", "f16" }, { "k", "i64" },
             { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = a * x(i) + (float)b + (float)c + (k < 0 ? 1.0f : 0.0f);" }
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "affine", a = -0.0, b = -0.0, c = -0.0, k = math.mininteger } } }
persistent "p" { commands = { "f" } }
