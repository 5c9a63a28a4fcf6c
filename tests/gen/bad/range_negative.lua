kernel "k" {
  pattern = "for",
  range = { -5 },
  params = { { "x", "f32[n]" } },
  body = "";
}
