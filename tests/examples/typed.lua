-- typed.lua: the examples of examples/ in the other element types they
-- sensibly support, for tests/examples.  Each kernel is the example's
-- workload with only its types changed (and, where the body names a type
-- or a literal, that too); the originals stay in examples/.

-- saxpy in f64 (daxpy) and i32
kernel "saxpy_f64" {
  pattern = "for", range = { "n" },
  params  = { { "a", "f64" }, { "x", "f64[n]", access = "in" }, { "y", "f64[n]", access = "inout" } },
  body = "y(i) = a * x(i) + y(i);",
}
kernel "saxpy_i32" {
  pattern = "for", range = { "n" },
  params  = { { "a", "i32" }, { "x", "i32[n]", access = "in" }, { "y", "i32[n]", access = "inout" } },
  body = "y(i) = a * x(i) + y(i);",
}

-- inc32k in i64 and u32 (u32 wraps at 2^32 - 1, defined on both sides)
kernel "inc32k_i64" {
  pattern = "for", range = { 32768 }, block = 256,
  params  = { { "v", "i64[32768]", access = "inout" } },
  body    = "v(i) += 1;",
}
kernel "inc32k_u32" {
  pattern = "for", range = { 32768 }, block = 256,
  params  = { { "v", "u32[32768]", access = "inout" } },
  body    = "v(i) += 1;",
}

-- sum1k / sum32k in f64 and i32
kernel "sum1k_f64" {
  pattern = "reduce", range = { 1024 },
  params  = { { "x", "f64[1024]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "sum1k_i32" {
  pattern = "reduce", range = { 1024 },
  params  = { { "x", "i32[1024]" }, { "out", "i32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "sum32k_f64" {
  pattern = "reduce", range = { 32768 },
  params  = { { "x", "f64[32768]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out", strategy = "auto",
}
kernel "sum32k_i32" {
  pattern = "reduce", range = { 32768 },
  params  = { { "x", "i32[32768]" }, { "out", "i32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out", strategy = "auto",
}

-- matmul32 in f64
kernel "matmul32_f64" {
  pattern = "team", league = 1, team_size = 1024,
  params  = {
    { "A", "f64[32][32]" }, { "B", "f64[32][32]" }, { "C", "f64[32][32]", access = "out" },
  },
  scratch = { { "As", "f64[32][32]" }, { "Bs", "f64[32][32]" } },
  body = [[
    const int ty = team_rank / 32, tx = team_rank % 32;
    As(ty, tx) = A(ty, tx);
    Bs(ty, tx) = B(ty, tx);
    team_barrier();
    double acc = 0.0;
    for (int e = 0; e < 32; e++) acc += As(ty, e) * Bs(e, tx);
    C(ty, tx) = acc;
  ]],
}

-- scan: i32 and f64 inclusive, f32 exclusive (the example's other kind)
kernel "scan_inclusive_i32" {
  pattern = "scan", kind = "inclusive", range = { "n" },
  params  = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } },
  value = "x(i)", into = "y",
}
kernel "scan_inclusive_f64" {
  pattern = "scan", kind = "inclusive", range = { "n" },
  params  = { { "x", "f64[n]" }, { "y", "f64[n]", access = "out" } },
  value = "x(i)", into = "y",
}
kernel "scan_exclusive_f32" {
  pattern = "scan", kind = "exclusive", range = { "n" },
  params  = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  value = "x(i)", into = "y",
}

-- tile_reduce16 in i32 and f64
kernel "tile_reduce16_i32" {
  pattern = "tile_reduce", tile = 16, range = { "n" },
  params  = { { "x", "i32[n]" }, { "out", "i32[ntiles]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "tile_reduce16_f64" {
  pattern = "tile_reduce", tile = 16, range = { "n" },
  params  = { { "x", "f64[n]" }, { "out", "f64[ntiles]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}

-- stencil2d_left in f64
kernel "stencil2d_left_f64" {
  pattern = "for", range = { "n", "m" },
  params  = {
    { "u",   "f64[n][m]", layout = "left" },
    { "lap", "f64[n][m]", layout = "left", access = "out" },
  },
  body = [[
    if (i > 0 && j > 0 && i < n - 1 && j < m - 1)
      lap(i, j) = u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4.0 * u(i, j);
    else
      lap(i, j) = 0.0;
  ]],
}

-- coop_reduce in f32 and i64
kernel "coop_reduce_f32" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out", strategy = "grid_sync", launch = "cooperative",
}
kernel "coop_reduce_i64" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "i64[n]" }, { "out", "i64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out", strategy = "grid_sync", launch = "cooperative",
}
