-- One kernel of each reduce template, for the CPU test that renders them
-- and compiles them with NVRTC (sm_80, sm_90) and hiprtc (gfx90a).
local strategies = { "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic" }
for _, s in ipairs(strategies) do
  kernel ("sum_" .. s) {
    pattern = "reduce", range = { "n" },
    params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
    value = "x(i)", op = "sum", into = "out", strategy = s,
  }
  kernel ("min_i64_" .. s) {
    pattern = "reduce", range = { "n" },
    params = { { "x", "i64[n]" }, { "out", "i64[1]", access = "out" } },
    value = "x(i)", op = "min", into = "out", strategy = s, allow_cas = true,
  }
  kernel ("prod_f64_" .. s) {
    pattern = "reduce", range = { "n" },
    params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
    value = "x(i)", op = "prod", into = "out", strategy = s, allow_cas = true,
  }
end
kernel "sum_f16" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f16[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out", type = "f32",
}
kernel "sum1k" {
  pattern = "reduce", range = { 1000 },
  params = { { "x", "f32[1000]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}
kernel "absmax" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "fabsf(x(i))", combine = "fmaxf(a, b)", identity = "0.0f", into = "out",
  strategy = "shared_atomic", allow_cas = true,
}
kernel "moments" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f64[2]", access = "out" } },
  value = { "x(i)", "x(i) * x(i)" }, op = "sum", into = "out", type = "f64",
}
kernel "scan_ex" {
  pattern = "scan", kind = "exclusive", range = { "n" },
  params = { { "x", "f64[n]" }, { "y", "f64[n]", access = "out" } },
  value = "x(i)", into = "y",
}
kernel "scan_in_i32" { -- the packed flag words (4-byte sums)
  pattern = "scan", kind = "inclusive", range = { "n" },
  params = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } },
  value = "x(i)", into = "y",
}
kernel "tile100" {
  pattern = "tile_reduce", tile = 100, range = { "n" },
  params = { { "x", "i32[n]" }, { "out", "i32[nt]", access = "out" } },
  value = "x(i)", op = "max", into = "out",
}
