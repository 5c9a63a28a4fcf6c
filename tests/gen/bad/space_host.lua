kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "x", "f32[n]", space = "mapped" },
    { "y", "f32[n]", access = "out", space = "host" },
  },
  body = "y(i) = x(i);",
}
