kernel "a" {
  pattern = "for",
