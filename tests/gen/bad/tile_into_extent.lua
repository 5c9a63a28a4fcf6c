kernel "k" {
  pattern = "tile_reduce",
  range = { 100 },
  params = { { "x", "f32[100]" }, { "y", "f32[6]", access = "out" } },
  value = "x(i)",
  into = "y",
  tile = 16,
}
