-- Every reduction strategy x operator x type, the scans and tile sizes the
-- gpu test checks against a CPU reference.  Kernel names carry what the
-- test needs to know: r_<strategy>_<op>_<type>, scan_<kind>_<type>,
-- tile_<op>_<type>_<tile>.  Both targets, so the hip rules run on every
-- kernel too; the bf16 inputs (cuda only) are in reduce_bf16.lua.
module { name = "reduce_all" }

local strategies = { "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic", "auto" }
local types = { "i32", "u32", "i64", "u64", "f32", "f64" }
local ops = { "sum", "min", "max", "prod" }

for _, s in ipairs(strategies) do
  for _, t in ipairs(types) do
    for _, op in ipairs(ops) do
      kernel ("r_" .. s .. "_" .. op .. "_" .. t) {
        pattern = "reduce", range = { "n" },
        params = { { "x", t .. "[n]" }, { "out", t .. "[1]", access = "out" } },
        value = "x(i)", op = op, into = "out", strategy = s, allow_cas = true,
      }
    end
  end
  -- f16: summed in f32
  kernel ("r_" .. s .. "_sum_f16") {
    pattern = "reduce", range = { "n" },
    params = { { "x", "f16[n]" }, { "out", "f32[1]", access = "out" } },
    value = "x(i)", op = "sum", into = "out", strategy = s, type = "f32", allow_cas = true,
  }
end

-- a value that is not a plain read (scalar path) and a multi-value reduce
kernel "r_expr_sum_f64" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "2.0 * x(i) + 1.0", op = "sum", into = "out",
}
kernel "moments" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f64[2]", access = "out" } },
  value = { "x(i)", "x(i) * x(i)" }, op = "sum", into = "out", type = "f64",
}

for _, kind in ipairs({ "inclusive", "exclusive" }) do
  for _, t in ipairs({ "i32", "u32", "f32", "i64", "u64", "f64" }) do
    kernel ("scan_" .. kind .. "_" .. t) {
      pattern = "scan", kind = kind, range = { "n" },
      params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
      value = "x(i)", into = "y",
    }
  end
end
-- tiles of 64 elements, so the test's 17000003-element scans have
-- 265626 tiles and wrap the ring of 262144 look-back slots (one word per
-- slot for i32, two for i64 and f64)
for _, t in ipairs({ "i32", "i64", "f64" }) do
  kernel ("scanring_inclusive_" .. t) {
    pattern = "scan", kind = "inclusive", range = { "n" }, block = 64, items = 1,
    params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
    value = "x(i)", into = "y",
  }
end

for _, tile in ipairs({ 2, 3, 7, 16, 31, 32, 33, 100, 256, 1000, 1024 }) do
  kernel ("tile_sum_f32_" .. tile) {
    pattern = "tile_reduce", tile = tile, range = { "n" },
    params = { { "x", "f32[n]" }, { "out", "f32[ntiles]", access = "out" } },
    value = "x(i)", op = "sum", into = "out",
  }
  kernel ("tile_max_i32_" .. tile) {
    pattern = "tile_reduce", tile = tile, range = { "n" },
    params = { { "x", "i32[n]" }, { "out", "i32[ntiles]", access = "out" } },
    value = "x(i)", op = "max", into = "out",
  }
end

-- static sizes <= 32K: auto runs them in one block (the persistent fast path)
for _, n in ipairs({ 1000, 1024, 32768 }) do
  kernel ("small_sum_f32_" .. n) {
    pattern = "reduce", range = { n },
    params = { { "x", "f32[" .. n .. "]" }, { "out", "f32[1]", access = "out" } },
    value = "x(i)", op = "sum", into = "out",
  }
end
