kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "x", "f32[n]" },
    { "n", "i64" },
  },
  body = "";
}
