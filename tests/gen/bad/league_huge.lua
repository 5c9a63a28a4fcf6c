kernel "t" {
  pattern = "team",
  league = 1 << 62,
  body = "",
}
