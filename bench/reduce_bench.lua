-- Kernels of bench/reduce_bench.c: every reduction strategy and auto on
-- f32, i32, f64; the auto scan on every 4- and 8-byte type with its fill
-- and its device-side check; fills; and the raw "one atomic per element
-- on one address" lesson, int vs float.
module { name = "reduce_bench", targets = { "cuda" } }

local strategies = { "auto", "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic" }
for _, t in ipairs({ "f32", "i32", "f64" }) do
  for _, s in ipairs(strategies) do
    kernel ("sum_" .. s .. "_" .. t) {
      pattern = "reduce", range = { "n" },
      params = { { "x", t .. "[n]" }, { "out", t .. "[1]", access = "out" } },
      value = "x(i)", op = "sum", into = "out", strategy = s,
    }
  end
  -- values small enough that i32 sums of 256M elements stay exact
  kernel ("fill_" .. t) {
    pattern = "for", range = { "n" },
    params = { { "x", t .. "[n]", access = "out" } },
    body = "x(i) = (" .. ({ f32 = "float", i32 = "int", f64 = "double" })[t] ..
           ")((i * 2654435761ull) % 7) - 3;",
  }
  -- the raw lesson: every element one atomicAdd on the same address
  kernel ("atomic_each_" .. t) {
    pattern = "for", range = { "n" },
    params = { { "x", t .. "[n]" }, { "out", t .. "[1]", access = "atomic" } },
    body = "atomicAdd(&out(0), x(i));",
  }
end
-- Scans.  The fill: -3..3 from a Weyl hash of i (mean 0), so a prefix
-- at 256M is a random walk of ~3e4 and every partial sum, in any order,
-- is an integer below 2^24: f32 and f64 sums are exact, and every type
-- compares exactly against CUB.  scan_diff_<t> counts the elements where
-- two outputs differ (on the device: no 2 GiB copy to the host).
local ctype = { i32 = "int", u32 = "unsigned", f32 = "float", i64 = "long long",
                u64 = "unsigned long long", f64 = "double" }
for _, t in ipairs({ "i32", "u32", "f32", "i64", "u64", "f64" }) do
  kernel ("scan_auto_" .. t) {
    pattern = "scan", kind = "inclusive", range = { "n" },
    params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
    value = "x(i)", into = "y",
  }
  kernel ("scan_fill_" .. t) {
    pattern = "for", range = { "n" },
    params = { { "x", t .. "[n]", access = "out" } },
    body = "x(i) = (" .. ctype[t] .. ")((long long)(((unsigned long long)i * 0x9E3779B97F4A7C15ull) >> 32) % 7 - 3);",
  }
  kernel ("scan_diff_" .. t) {
    pattern = "reduce", range = { "n" },
    params = { { "x", t .. "[n]" }, { "y", t .. "[n]" }, { "out", "i64[1]", access = "out" } },
    value = "x(i) == y(i) ? 0 : 1", op = "sum", into = "out", type = "i64",
  }
end
-- scan shapes beside auto's (block x items): the tuning rows, 4-byte
-- around auto's 256 x 16, 8-byte around 256 x 8 (the previous 256 x 6).
-- CUB's sm_90 shapes (128 x 24 for 4 bytes, 224 x 24 for 8) are not
-- here: with this template ptxas gives 24 items 128 registers.  Named
-- scan_b<block>_i<items>_<type>: the bench finds them by name.
local scan_shapes = {
  [4] = { { 256, 8 }, { 256, 12 }, { 256, 20 } },
  [8] = { { 256, 6 }, { 256, 12 }, { 256, 16 }, { 128, 16 } },
}
for _, t in ipairs({ "i32", "f32", "i64", "f64" }) do
  for _, v in ipairs(scan_shapes[(t == "i64" or t == "f64") and 8 or 4]) do
    kernel ("scan_b" .. v[1] .. "_i" .. v[2] .. "_" .. t) {
      pattern = "scan", kind = "inclusive", range = { "n" }, block = v[1], items = v[2],
      params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
      value = "x(i)", into = "y",
    }
  end
end
-- reduce shapes beside auto's (block x items), every type: the tuning rows
-- of the reduce tuning.  `items` only sizes the covering grid (n / (block x items),
-- capped at the co-resident blocks); the loads in flight per thread are
-- the template's UNROLL x 16 bytes whatever `items` says.  The grid rows of
-- the bench launch sum_auto_<t> with an explicit grid (gg_launch_grid).
for _, t in ipairs({ "f32", "i32", "f64" }) do
  for _, v in ipairs({ { 128, 16 }, { 256, 4 }, { 256, 8 }, { 256, 32 }, { 512, 8 }, { 512, 16 },
                       { 1024, 4 }, { 1024, 16 } }) do
    kernel ("sum_shape_b" .. v[1] .. "_i" .. v[2] .. "_" .. t) {
      pattern = "reduce", range = { "n" }, block = v[1], items = v[2],
      params = { { "x", t .. "[n]" }, { "out", t .. "[1]", access = "out" } },
      value = "x(i)", op = "sum", into = "out", strategy = "warp_shuffle",
    }
  end
end
