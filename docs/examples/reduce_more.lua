-- Reductions beyond one value over a 1-D range: a 2-D range, one operator
-- per value, the index of the smallest element.

-- y^T A x over a 2-D range: i over m, j over n (Kokkos' MDRangePolicy example).
kernel "ytax" {
  pattern = "reduce", range = { "m", "n" },
  params  = {
    { "y", "f64[m]" }, { "A", "f64[m][n]" }, { "x", "f64[n]" },
    { "out", "f64[1]", access = "out" },
  },
  value = "y(i) * A(i, j) * x(j)", into = "out",
}

-- smallest, largest and sum in one pass: one operator per value.
kernel "min_max_sum" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[3]", access = "out" } },
  value   = { "x(i)", "x(i)", "x(i)" }, op = { "min", "max", "sum" }, into = "out",
}

-- the smallest element and its index: a key whose upper 32 bits order like
-- x(i) and whose lower 32 bits are i, reduced with min (ties: smallest i).
kernel "argmin" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "u64[1]", access = "out" } },
  value   = [[ (unsigned long long)(__float_as_uint(x(i))
                 ^ ((unsigned)((int)__float_as_uint(x(i)) >> 31) | 0x80000000u)) << 32
               | (unsigned long long)i ]],
  op = "min", into = "out",
}
