kernel "k" {
  range = { "n" },
  body = "",
}
