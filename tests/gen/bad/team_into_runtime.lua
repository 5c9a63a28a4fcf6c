kernel "t" {
  pattern = "team", league = "n",
  params = { { "x", "f64[n]" }, { "out", "f64[n]", access = "out" } },
  body = "contribute(x(league_rank));",
  into = "out",
}
