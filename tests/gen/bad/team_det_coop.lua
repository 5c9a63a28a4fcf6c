kernel "t" {
  pattern = "team", league = "n", launch = "cooperative",
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  body = "contribute(x(league_rank));",
  into = "out",
  strategy = "deterministic",
}
