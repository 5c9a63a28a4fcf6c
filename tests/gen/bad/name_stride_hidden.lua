kernel "k" {
  pattern = "for", range = { "n" },
  params = {
    { "A", "f32[n][4]", layout = "stride", access = "out" },
    { "A_s0", "i64" },
  },
  body = "A(i, 0) = 1;",
}
