-- saxpy: y = a*x + y over a run-time length n (pattern "for").
kernel "saxpy" {
  pattern = "for",
  range   = { "n" },                       -- n becomes an i64 argument after the params
  params  = {
    { "a", "f32" },                        -- a scalar
    { "x", "f32[n]", access = "in" },
    { "y", "f32[n]", access = "inout" },
  },
  body = "y(i) = a * x(i) + y(i);",
}
