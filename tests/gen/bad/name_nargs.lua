kernel "k" {
  pattern = "for", range = { 4 },
  params = { { "nargs", "i32" } },
  body = "",
}
