-- Frames on 2 GPUs with halo stages (tests/nvshmem/test_exchange_gpu.c):
-- each GPU's view is its part of a larger array with ghost rows at both
-- ends of its outer index, known only at run time (the parts differ
-- when the GPUs do not divide the array); the halo fills the ghost rows
-- from the neighbours, then a stencil stage reads them.
module { name = "halo", targets = { "cuda" } }

-- f32[n], width 1, no wrap: y(i) = x(i - 1) + x(i + 1) - x(i) on the
-- interior rows (additions only: the CPU gets the same bits)
kernel "edge1" {
  pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "in" }, { "y", "f32[n]", access = "out" } },
  body = "if (i > 0 && i < n - 1) y(i) = x(i - 1) + x(i + 1) - x(i);",
}
frame "hal1" {
  gpus = 2,
  params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { exchange = "halo", view = "x" }, { "edge1" } },
}

-- u32[5][n] in layout left (the outer index is the last), width 2, wrap:
-- rows of 5; yu(j, i) = h(j, i - 2) ^ h(j, i + 2) on the interior rows
kernel "edge2" {
  pattern = "for", range = { 5, "n" }, index = { "j", "i" },
  params = { { "h", "u32[5][n]", layout = "left", access = "in" },
             { "yu", "u32[5][n]", layout = "left", access = "out" } },
  body = "if (i >= 2 && i < n - 2) yu(j, i) = h(j, i - 2) ^ h(j, i + 2);",
}
frame "hal2" {
  gpus = 2,
  params = { { "h", "u32[5][n]", layout = "left" }, { "yu", "u32[5][n]", layout = "left" } },
  stages = { { exchange = "halo", view = "h", width = 2, wrap = true }, { "edge2" } },
}

-- f64[n][700], width 3, no wrap: 2100 elements a side, 5 chunks;
-- yd(i, j) = hd(i - 3, j) + hd(i + 3, j) on the interior rows
kernel "edge3" {
  pattern = "for", range = { "n", 700 }, index = { "i", "j" },
  params = { { "hd", "f64[n][700]", access = "in" }, { "yd", "f64[n][700]", access = "out" } },
  body = "if (i >= 3 && i < n - 3) yd(i, j) = hd(i - 3, j) + hd(i + 3, j);",
}
frame "hal3" {
  gpus = 2,
  params = { { "hd", "f64[n][700]" }, { "yd", "f64[n][700]" } },
  stages = { { exchange = "halo", view = "hd", width = 3 }, { "edge3" } },
}

persistent "p" {
  layout = "many_blocks", blocks = 6, block = 128,
  commands = { "hal1", "hal2", "hal3" },
}
