-- tile_reduce16: every consecutive group of 16 elements summed to one
-- value, as in the HIP cooperative-groups partition example.  The output
-- has ceil(n / 16) elements; with a run-time n its extent is a run-time
-- name of its own (ntiles), which the caller sets to ceil(n / 16).
kernel "tile_reduce16" {
  pattern = "tile_reduce",
  tile    = 16,
  range   = { "n" },
  params  = {
    { "x",   "f32[n]" },
    { "out", "f32[ntiles]", access = "out" },
  },
  value = "x(i)",
  op    = "sum",
  into  = "out",
}
