kernel "my-kernel" {
  pattern = "for",
}
