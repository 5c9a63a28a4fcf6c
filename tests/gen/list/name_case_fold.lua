-- x and X differ only in letter case: their header constants keep their case
-- (GG_NAME_CASE_FOLD_K_x, GG_NAME_CASE_FOLD_K_X), as the batch extent b and
-- the view B of a gemm do
kernel "k" {
  pattern = "for", range = { "n" },
  params = {
    { "x", "f32[n]", access = "out" },
    { "X", "f32" },
  },
  body = "x(i) = X;",
}
