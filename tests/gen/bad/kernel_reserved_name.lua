kernel "int" {
  pattern = "for",
}
