kernel "k" {
  pattern = "tile_reduce",
  range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[nt]", access = "out" } },
  value = "x(i)",
  into = "y",
  tile = 2000,
}
