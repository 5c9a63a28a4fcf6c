-- Kernels of bench/reduce_bench.c: every reduction strategy and auto on
-- f32, i32, f64; the auto scan on i32, f32; fills; and the raw "one atomic
-- per element on one address" lesson, int vs float.
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
for _, t in ipairs({ "i32", "f32" }) do
  kernel ("scan_auto_" .. t) {
    pattern = "scan", kind = "inclusive", range = { "n" },
    params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
    value = "x(i)", into = "y",
  }
end
-- scan shapes beside auto's (block x items), i32 only: the tuning rows
for _, v in ipairs({ { 256, 12 }, { 256, 20 }, { 128, 16 }, { 512, 12 } }) do
  kernel ("scan_b" .. v[1] .. "_i" .. v[2] .. "_i32") {
    pattern = "scan", kind = "inclusive", range = { "n" }, block = v[1], items = v[2],
    params = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } },
    value = "x(i)", into = "y",
  }
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
