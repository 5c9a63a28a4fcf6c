-- Identities given as Lua numbers that have no plain C literal: they must
-- reach NVRTC and hiprtc as something both compile (gpugen check).
kernel "min_huge" { pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", combine = "fmin(a, b)", identity = math.huge, into = "out" }
kernel "max_neg_huge" { pattern = "scan", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  value = "x(i)", combine = "fmaxf(a, b)", identity = -math.huge, into = "y" }
kernel "max_minint" { pattern = "tile_reduce", tile = 7, range = { "n" },
  params = { { "x", "i64[n]" }, { "t", "i64[nt]", access = "out" } },
  value = "x(i)", combine = "(a < b ? b : a)", identity = math.mininteger, into = "t" }
kernel "prod_float" { pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", combine = "a * b", identity = 1.0, into = "out" }
