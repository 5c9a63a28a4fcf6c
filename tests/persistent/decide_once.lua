-- Persistent kernels whose commands need a workspace (multi-block
-- reductions, a scan) on layouts with many (pseudo-)blocks, and one
-- whose pseudo-blocks need more than 48 KiB of shared memory.
-- tests/persistent/test_decide_once.c runs them against a CPU reference.
module { name = "decide_once", targets = { "cuda" } }

-- run-time sizes: 1024-thread blocks for a classic launch, so the
-- classic workspace is sized for a quarter of the 256-thread grid
kernel "sum_f32" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "sum_i64" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "i64[n]" }, { "out", "i64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "min_i32" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "i32[n]" }, { "out", "i32[1]", access = "out" } },
  value = "x(i)", op = "min", into = "out",
}
kernel "max_f64" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "max", into = "out",
}
kernel "prod_f64" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "prod", into = "out",
}
kernel "sum_f32_shared_atomic" {
  pattern = "reduce", range = { "n" }, strategy = "shared_atomic",
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "max_i32_global_atomic" {
  pattern = "reduce", range = { "n" }, strategy = "global_atomic",
  params = { { "x", "i32[n]" }, { "out", "i32[1]", access = "out" } },
  value = "x(i)", op = "max", into = "out",
}
kernel "min_f32_tree" {
  pattern = "reduce", range = { "n" }, strategy = "shared_tree", block = 256,
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "min", into = "out",
}
kernel "scan_i32" {
  pattern = "scan", range = { "n" }, block = 256,
  params = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } },
  value = "x(i)", op = "sum", into = "y",
}

persistent "many" {
  layout = "many_blocks", block = 256,
  commands = { "sum_f32", "sum_i64", "min_i32", "max_f64", "prod_f64",
               "sum_f32_shared_atomic", "max_i32_global_atomic", "min_f32_tree", "scan_i32" },
}
persistent "hyb" {
  layout = "hybrid", block = 256, groups = 2,
  commands = { "sum_f32", "sum_i64", "min_i32", "max_f64", "prod_f64",
               "sum_f32_shared_atomic", "max_i32_global_atomic", "min_f32_tree", "scan_i32" },
}

-- 3 pseudo-blocks of a scan whose tile is 128 x 32 f64 items: ~100 KiB
-- of shared memory per block, above the 48 KiB a kernel gets without
-- asking for the larger carve-out
kernel "scan_big_f64" {
  pattern = "scan", range = { "n" }, block = 128, items = 32,
  params = { { "x", "f64[n]" }, { "y", "f64[n]", access = "out" } },
  value = "x(i)", op = "sum", into = "y",
}
persistent "big" {
  layout = "thread_groups", block = 384, groups = 3,
  commands = { "scan_big_f64" },
}
