kernel "k" {
  pattern = "for",
  range = { "m" },
  params = { { "x", "f32[n]" } },
  body = "";
}
