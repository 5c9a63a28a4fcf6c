kernel "k" {
  pattern = "for", range = { 4 },
  params = {
    { "x", "f32[99999999999999999999999]", access = "out" },
  },
  body = "",
}
