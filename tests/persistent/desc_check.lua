-- For test_desc.c: commands with each figure gg_session_open checks (a
-- team's exact thread count, a shared-tree reduce's thread bound and
-- workspace, a plain loop), on a grouped and a one-block layout.
module { name = "desc_check", targets = { "cuda" } }
kernel "team128" {
  pattern = "team", league = "n", team_size = 128,
  params = { { "x", "f32[n]", access = "inout" } },
  body = "if (team_rank == 0) x(league_rank) = 1.0f;",
}
kernel "tree" {
  pattern = "reduce", range = { "n" }, strategy = "shared_tree", block = 128,
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "scale" {
  pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]", access = "inout" } },
  body = "x(i) = a * x(i);",
}
persistent "hyb" { layout = "hybrid", block = 384, groups = 3, commands = { "team128", "tree", "scale" } }
persistent "one" { layout = "one_block", block = 128, commands = { "scale", "tree" } }
