-- coop_reduce: a two-phase sum in ONE kernel: each block reduces its part,
-- a grid-wide barrier, then block 0 combines the partial sums.  Needs a
-- cooperative launch (grid sized to what is co-resident).
kernel "coop_reduce" {
  pattern  = "reduce",
  range    = { "n" },
  params   = {
    { "x",   "f64[n]" },
    { "out", "f64[1]", access = "out" },
  },
  value    = "x(i)",
  op       = "sum",
  into     = "out",
  strategy = "grid_sync",
  launch   = "cooperative",
}
