-- Numbers bound to a stage's scalars become C literals of the scalar's
-- type: -0.0 keeps its sign (a floating literal, not the integer -0),
-- the smallest i64 is written so that no literal overflows, and a u64
-- past 2^63 (a float in Lua, but a whole number) is taken whole.
kernel "affine" { pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "b", "f64" }, { "c", "f16" }, { "k", "i64" }, { "u", "u64" },
             { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = a * x(i) + (float)b + (float)c + (k < 0 ? 1.0f : 0.0f) + (u > 1u ? 1.0f : 0.0f);" }
frame "f" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "affine", a = -0.0, b = -0.0, c = -0.0, k = math.mininteger, u = 2^63 + 2048 } } }
persistent "p" { commands = { "f" } }
