kernel "a" {
  pattern = "for"
  range = { "n" },
}
