kernel "k" {
  pattern = "for",
  range = { math.maxinteger },
  body = "",
}
