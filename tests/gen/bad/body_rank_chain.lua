kernel "k" {
  pattern = "for", range = { "n", "m" }, index = { "i", "j" },
  params = { { "a", "f32[n][m]", access = "inout" } },
  body = "a(i)(j) = 0;",
}
