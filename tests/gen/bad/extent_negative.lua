kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "x", "f32[-4]" },
  },
  body = "";
}
