-- 2-D and 3-D reduce ranges, one operator per value, and the index of the
-- minimum (a packed u64 key), on every strategy: test_reduce_md_gpu runs
-- them against a CPU reference.  Names: <what>_<strategy>.
module { name = "reduce_md" }

local strategies = { "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic", "auto" }
local function atomic(s) return s == "global_atomic" or s == "shared_atomic" end

for _, s in ipairs(strategies) do
  -- y^T A x (Kokkos' MDRangePolicy example), A row-major: j contiguous
  kernel ("ytax_" .. s) {
    pattern = "reduce", range = { "m", "n" },
    params = { { "y", "i64[m]" }, { "A", "i64[m][n]" }, { "x", "i64[n]" }, { "out", "i64[1]", access = "out" } },
    value = "y(i) * A(i, j) * x(j)", into = "out", strategy = s,
  }
  -- 3-D, layout left (i contiguous); each index weighed differently
  kernel ("vol_" .. s) {
    pattern = "reduce", range = { "a", "b", "c" },
    params = { { "T", "i64[a][b][c]", layout = "left" }, { "out", "i64[1]", access = "out" } },
    value = "T(i, j, k) * (1 + i + 3 * j + 7 * k)", into = "out", strategy = s,
  }
  if not atomic(s) then
    kernel ("minmax_" .. s) {
      pattern = "reduce", range = { "n" },
      params = { { "x", "f32[n]" }, { "out", "f32[3]", access = "out" } },
      value = { "x(i)", "x(i)", "x(i)" }, op = { "min", "max", "sum" }, into = "out", strategy = s,
    }
  end
  -- the order-preserving bits of x(i) above, the index below: the minimum
  -- key is the smallest value at its smallest index
  kernel ("minloc_" .. s) {
    pattern = "reduce", range = { "n" },
    params = { { "x", "f32[n]" }, { "out", "u64[1]", access = "out" } },
    value = [[ (unsigned long long)(__float_as_uint(x(i)) ^ ((unsigned)((int)__float_as_uint(x(i)) >> 31) | 0x80000000u)) << 32
               | (unsigned long long)i ]],
    op = "min", into = "out", strategy = s,
  }
end

-- a static 3-D range: one block (<= 32K elements)
kernel "vol_static" {
  pattern = "reduce", range = { 5, 7, 9 },
  params = { { "T", "i64[5][7][9]" }, { "out", "i64[1]", access = "out" } },
  value = "T(i, j, k) * (1 + i + 3 * j + 7 * k)", into = "out",
}
