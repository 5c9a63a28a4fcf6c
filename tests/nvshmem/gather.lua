-- Frames on 2 GPUs with broadcast, allgather and alltoall stages
-- (tests/nvshmem/test_gather_gpu.c): each GPU fills a view from its own
-- input, the exchange moves the owners' elements to every GPU, then a
-- stage uses the whole view.  The sizes are not powers of two, and the
-- allgathers' row counts do not divide by 2.
module { name = "gather", targets = { "cuda" } }

-- broadcast of f32 from GPU 1: w(i) = 3 x(i), then y(i) = x(i) * w(i % 1001)
kernel "fill_w" {
  pattern = "for", range = { 1001 },
  params = { { "x", "f32[n]", access = "in" }, { "w", "f32[1001]", access = "out" } },
  body = "w(i) = x(i) * 3.0f;",
}
kernel "use_w" {
  pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "in" }, { "w", "f32[1001]", access = "in" },
             { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i) * w(i % 1001);",
}
frame "bcast" {
  gpus = 2,
  params = { { "x", "f32[n]" }, { "w", "f32[1001]" }, { "y", "f32[n]" } },
  stages = { { "fill_w" }, { exchange = "broadcast", view = "w", root = 1 }, { "use_w" } },
}

-- allgather of f64 over 13 rows of 7 (GPU 0 rows 0..5, GPU 1 rows 6..12):
-- gm(i, j) = xd(7 i + j)^2 (every GPU fills all; only its part counts),
-- then yd(i) = xd(i) + gm(i % 13, i % 7)
kernel "square" {
  pattern = "for", range = { 13, 7 }, index = { "i", "j" },
  params = { { "xd", "f64[n]", access = "in" }, { "gm", "f64[13][7]", access = "out" } },
  body = "gm(i, j) = xd(7 * i + j) * xd(7 * i + j);",
}
kernel "use_g" {
  pattern = "for", range = { "n" },
  params = { { "xd", "f64[n]", access = "in" }, { "gm", "f64[13][7]", access = "in" },
             { "yd", "f64[n]", access = "out" } },
  body = "yd(i) = xd(i) + gm(i % 13, i % 7);",
}
frame "gath" {
  gpus = 2,
  params = { { "xd", "f64[n]" }, { "gm", "f64[13][7]" }, { "yd", "f64[n]" } },
  stages = { { "square" }, { exchange = "allgather", view = "gm" }, { "use_g" } },
}

-- allgather of u32 over 4099 rows of 3 (13 chunks; the parts meet inside
-- chunk 6): h(i, j) = xu(3 i + j) ^ 0x5a5a5a5a, then yu(i) = h(i / 3, i % 3) + 1
kernel "mark" {
  pattern = "for", range = { 4099, 3 }, index = { "i", "j" },
  params = { { "xu", "u32[n]", access = "in" }, { "h", "u32[4099][3]", access = "out" } },
  body = "h(i, j) = xu(3 * i + j) ^ 0x5a5a5a5au;",
}
kernel "use_h" {
  pattern = "for", range = { 12297 },
  params = { { "xu", "u32[n]", access = "in" }, { "h", "u32[4099][3]", access = "in" },
             { "yu", "u32[n]", access = "out" } },
  body = "yu(i) = h(i / 3, i % 3) + 1u;",
}
frame "gbig" {
  gpus = 2,
  params = { { "xu", "u32[n]" }, { "h", "u32[4099][3]" }, { "yu", "u32[n]" } },
  stages = { { "mark" }, { exchange = "allgather", view = "h" }, { "use_h" } },
}

-- alltoall of f32 over 4004 rows of 3 (12 chunks; blocks of 2002 rows,
-- which meet inside chunk 5; on 4 GPUs blocks of 1001 rows, 3003
-- elements: odd, so a pair of elements can straddle two GPUs' blocks or
-- land off a 16-byte boundary, and is stored one by one): a(i, j) = 5 xa(3 i + j), then block q of
-- GPU p becomes block p of GPU q; ya(i) = 2 a(i / 3, i % 3)
kernel "five" {
  pattern = "for", range = { 4004, 3 }, index = { "i", "j" },
  params = { { "xa", "f32[n]", access = "in" }, { "a", "f32[4004][3]", access = "out" } },
  body = "a(i, j) = xa(3 * i + j) * 5.0f;",
}
kernel "use_a" {
  pattern = "for", range = { 12012 },
  params = { { "xa", "f32[n]", access = "in" }, { "a", "f32[4004][3]", access = "in" },
             { "ya", "f32[n]", access = "out" } },
  body = "ya(i) = a(i / 3, i % 3) * 2.0f;",
}
frame "a2a" {
  gpus = 2,
  params = { { "xa", "f32[n]" }, { "a", "f32[4004][3]" }, { "ya", "f32[n]" } },
  stages = { { "five" }, { exchange = "alltoall", view = "a" }, { "use_a" } },
}

persistent "p" {
  layout = "many_blocks", blocks = 6, block = 128,
  commands = { "bcast", "gath", "gbig", "a2a" },
}
