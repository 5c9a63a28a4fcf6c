kernel "k" {
  pattern = "for", range = { 4 },
  params = {
    { "x", "f64[4194304][4194304][4194304]", access = "out" },
  },
  body = "",
}
