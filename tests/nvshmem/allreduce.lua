-- Frames on 2 GPUs with an allreduce stage (tests/nvshmem/test_allreduce_gpu.c):
-- each GPU computes its partial results into a small view, the exchange
-- combines them across the GPUs, then a stage uses the combined view.
-- One frame per op; the sizes are not powers of two.
module { name = "allreduce", targets = { "cuda" } }

-- sum of f32: e(i) = 3 x(i) on each GPU (one rounding: the CPU gets the same bits), then y(i) = x(i) * e(i % 1003)
kernel "fill" {
  pattern = "for", range = { 1003 },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[1003]", access = "out" } },
  body = "e(i) = x(i) * 3.0f;",
}
kernel "use_e" {
  pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "in" }, { "e", "f32[1003]", access = "in" },
             { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i) * e(i % 1003);",
}
frame "fsum" {
  gpus = 2,
  params = { { "x", "f32[n]" }, { "e", "f32[1003]" }, { "y", "f32[n]" } },
  stages = {
    { "fill" },
    { exchange = "allreduce", view = "e", op = "sum" },
    { "use_e" },
  },
}

-- min of i32: c = the smallest element of xi on each GPU (a reduce), then
-- yi(i) = xi(i) - c
kernel "smallest" {
  pattern = "reduce", range = { "n" },
  params = { { "xi", "i32[n]", access = "in" }, { "c", "i32[1]", access = "out" } },
  value = "xi(i)", op = "min", into = "c",
}
kernel "use_c" {
  pattern = "for", range = { "n" },
  params = { { "xi", "i32[n]", access = "in" }, { "c", "i32[1]", access = "in" },
             { "yi", "i32[n]", access = "out" } },
  body = "yi(i) = xi(i) - c(0);",
}
frame "imin" {
  gpus = 2,
  params = { { "xi", "i32[n]" }, { "c", "i32[1]" }, { "yi", "i32[n]" } },
  stages = {
    { "smallest" },
    { exchange = "allreduce", view = "c", op = "min" },
    { "use_c" },
  },
}

-- max of f64 over a rank-2 view: d(i, j) = xd(5 i + j)^2, then
-- yd(i) = xd(i) + d(i % 7, i % 5)
kernel "square" {
  pattern = "for", range = { 7, 5 }, index = { "i", "j" },
  params = { { "xd", "f64[n]", access = "in" }, { "d", "f64[7][5]", access = "out" } },
  body = "d(i, j) = xd(5 * i + j) * xd(5 * i + j);",
}
kernel "use_d" {
  pattern = "for", range = { "n" },
  params = { { "xd", "f64[n]", access = "in" }, { "d", "f64[7][5]", access = "in" },
             { "yd", "f64[n]", access = "out" } },
  body = "yd(i) = xd(i) + d(i % 7, i % 5);",
}
frame "dmax" {
  gpus = 2,
  params = { { "xd", "f64[n]" }, { "d", "f64[7][5]" }, { "yd", "f64[n]" } },
  stages = {
    { "square" },
    { exchange = "allreduce", view = "d", op = "max" },
    { "use_d" },
  },
}

persistent "p" {
  layout = "many_blocks", blocks = 6, block = 128,
  commands = { "fsum", "imin", "dmax" },
}
