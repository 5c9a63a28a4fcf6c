kernel "k" {
  pattern = "for",
  range = { "rows", "cols" },
  params = { { "A", "f32[rows][colls]", access = "out" } },
  body = "A(i, j) = 0.0f;",
}
