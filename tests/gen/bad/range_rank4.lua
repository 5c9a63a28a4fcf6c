kernel "k" {
  pattern = "for",
  range = { "n", "n", "n", "n" },
  params = { { "x", "f32[n]" } },
  body = "";
}
