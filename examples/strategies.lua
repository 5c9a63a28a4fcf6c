-- strategies: one reduction per strategy over the same data, plus a
-- multi-value reduce and a custom combiner.  Compare them with
-- `gpugen explain examples/strategies.lua <kernel>`.
local strategies = { "global_atomic", "shared_atomic", "warp_shuffle",
                     "shared_tree", "cg_tile", "deterministic" }
for _, s in ipairs(strategies) do
  kernel ("sum_" .. s) {
    pattern = "reduce", range = { "n" },
    params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
    value = "x(i)", op = "sum", into = "out", strategy = s,
  }
end

-- grid_sync needs a cooperative launch; gpugen sets it.
kernel "sum_grid_sync" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", into = "out", strategy = "grid_sync",
}

-- integer max with a native atomic
kernel "max_i32" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "i32[n]" }, { "out", "i32[1]", access = "out" } },
  value = "x(i)", op = "max", into = "out", strategy = "shared_atomic",
}

-- float max has no native atomic: allow a compare-and-swap loop
kernel "max_f32_cas" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "max", into = "out",
  strategy = "global_atomic", allow_cas = true,
}

-- multi-value: sum and sum of squares in one pass, accumulated in f64
kernel "moments" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f64[2]", access = "out" } },
  value = { "x(i)", "x(i) * x(i)" },  -- out(0), out(1)
  op = "sum", into = "out", type = "f64",
}

-- custom combiner: the largest absolute value
kernel "absmax" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "fabsf(x(i))", combine = "fmaxf(a, b)", identity = "0.0f", into = "out",
}
