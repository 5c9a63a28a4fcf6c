kernel "k" {
  pattern = "for",
  range = { "n" },
  params = {
    { "x", "f32[a][b][c][d]" },
  },
  body = "";
}
