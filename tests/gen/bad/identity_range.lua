kernel "k" { pattern = "reduce", range = { "n" },
  params = { { "x", "i32[n]" }, { "o", "i32[1]", access = "out" } },
  value = "x(i)", combine = "a < b ? a : b", identity = math.maxinteger, into = "o" }
