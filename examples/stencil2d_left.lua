-- stencil2d_left: 5-point Laplacian on an n x m grid stored column-major
-- (layout = "left", as Fortran and Kokkos' LayoutLeft).  With layout left
-- the first index is the contiguous one, so gpugen makes i the fastest.
kernel "stencil2d_left" {
  pattern = "for",
  range   = { "n", "m" },             -- 2-D range: indices i (over n), j (over m)
  params  = {
    { "u",   "f32[n][m]", layout = "left" },
    { "lap", "f32[n][m]", layout = "left", access = "out" },
  },
  body = [[
    if (i > 0 && j > 0 && i < n - 1 && j < m - 1)
      lap(i, j) = u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4.0f * u(i, j);
    else
      lap(i, j) = 0.0f;   /* boundary */
  ]],
}
