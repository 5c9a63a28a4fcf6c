kernel "k" {
  pattern = "for",
  range = { "n" },
  params = { { "x", "f32[n]" } },
  index = { "r", "c" },
  body = "";
}
