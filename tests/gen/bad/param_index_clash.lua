kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "x", "f32[n]" },
    { "i", "i32" },
  },
  body = "";
}
