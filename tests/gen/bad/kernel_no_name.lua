kernel {
  pattern = "for",
}
