kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "x", "f32[n]" },
    { "a", "f32", access = "in" },
  },
  body = "";
}
