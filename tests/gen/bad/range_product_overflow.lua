kernel "k" {
  pattern = "for",
  range = { 4294967296, 4294967296 },
  body = "",
}
