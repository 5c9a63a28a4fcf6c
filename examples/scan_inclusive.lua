-- scan_inclusive: y(i) = x(0) + ... + x(i) (pattern "scan").
kernel "scan_inclusive" {
  pattern = "scan",
  kind    = "inclusive",              -- or "exclusive": x(0) + ... + x(i-1)
  range   = { "n" },
  params  = {
    { "x", "f32[n]" },
    { "y", "f32[n]", access = "out" },   -- same extent as the range
  },
  value = "x(i)",
  into  = "y",
}
