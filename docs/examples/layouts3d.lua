-- The same 3-D fill on each layout.  T(i, j, k) is element
--   right:  (i * n1 + j) * n2 + k     (k, the last index, is contiguous)
--   left:   i + (j + k * n1) * n0     (i, the first index, is contiguous)
--   stride: i * T_s0 + j * T_s1 + k * T_s2   (strides in elements, at launch)
kernel "fill_right" {
  pattern = "for", range = { "n0", "n1", "n2" },
  params  = { { "T", "i32[n0][n1][n2]", access = "out" } },
  body    = "T(i, j, k) = (int)(i * 10000 + j * 100 + k);",
}
kernel "fill_left" {
  pattern = "for", range = { "n0", "n1", "n2" },
  params  = { { "T", "i32[n0][n1][n2]", layout = "left", access = "out" } },
  body    = "T(i, j, k) = (int)(i * 10000 + j * 100 + k);",
}
kernel "fill_stride" {
  pattern = "for", range = { "n0", "n1", "n2" },
  params  = { { "T", "i32[n0][n1][n2]", layout = "stride", access = "out" } },
  body    = "T(i, j, k) = (int)(i * 10000 + j * 100 + k);",
}
