kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "c", "i32[n]" }, { "out", "i32[n]", access = "inout" } },
  body = "out(i)++; ++out(i); int q = +++c(i); (void)q;\n--c(i);",
}
