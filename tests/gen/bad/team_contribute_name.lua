kernel "t" {
  pattern = "team", league = "n",
  params = { { "contribute", "f64[n]" } },
  body = "",
}
