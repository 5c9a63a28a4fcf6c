-- sum32k: the sum of 32768 floats; `auto` picks the strategy
-- (see `gpugen explain examples/sum32k.lua sum32k`).
kernel "sum32k" {
  pattern  = "reduce",
  range    = { 32768 },
  params   = {
    { "x",   "f32[32768]" },
    { "out", "f32[1]", access = "out" },
  },
  value    = "x(i)",
  op       = "sum",
  into     = "out",
  strategy = "auto",
}
