kernel "t" {
  pattern = "team", league = "n",
  params = { { "x", "f64[n]" }, { "out", "f64[1]" } },
  body = "contribute(x(league_rank));",
  into = "out",
}
