-- sum1k: the sum of 1024 floats, the extent fixed at generation time.
-- The 1024-element frame whose latency the persistent benchmarks measure.
kernel "sum1k" {
  pattern = "reduce",
  range   = { 1024 },
  params  = {
    { "x",   "f32[1024]" },
    { "out", "f32[1]", access = "out" },   -- one element per value
  },
  value = "x(i)",
  op    = "sum",
  into  = "out",
}
