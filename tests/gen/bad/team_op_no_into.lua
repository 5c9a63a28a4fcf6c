kernel "t" {
  pattern = "team", league = "n",
  params = { { "x", "f64[n]" } },
  body = "contribute(x(league_rank));",
  op = "max",
}
