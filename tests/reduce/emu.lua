-- Kernels for the host-emulation test (test_reduce_emu): every reduce
-- strategy x operator on i32 and f64, scans, tiles.  Names: e_<s>_<op>_<t>.
module { name = "reduce_emu", targets = { "cuda" } }
local strategies = { "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic" }
for _, s in ipairs(strategies) do
  for _, t in ipairs({ "i32", "f64" }) do
    for _, op in ipairs({ "sum", "min", "max", "prod" }) do
      kernel ("e_" .. s .. "_" .. op .. "_" .. t) {
        pattern = "reduce", range = { "n" },
        params = { { "x", t .. "[n]" }, { "out", t .. "[1]", access = "out" } },
        value = "x(i)", op = op, into = "out", strategy = s, allow_cas = true,
      }
    end
  end
end
kernel "e_moments" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[2]", access = "out" } },
  value = { "x(i)", "x(i) * x(i)" }, op = "sum", into = "out",
}
for _, kind in ipairs({ "inclusive", "exclusive" }) do
  for _, t in ipairs({ "i32", "f64" }) do
    kernel ("s_" .. kind .. "_" .. t) {
      pattern = "scan", kind = kind, range = { "n" },
      params = { { "x", t .. "[n]" }, { "y", t .. "[n]", access = "out" } },
      value = "x(i)", into = "y",
    }
  end
end
for _, tile in ipairs({ 2, 3, 16, 33, 100, 1024 }) do
  kernel ("t_" .. tile) {
    pattern = "tile_reduce", tile = tile, range = { "n" },
    params = { { "x", "i32[n]" }, { "out", "i32[nt]", access = "out" } },
    value = "x(i)", op = "sum", into = "out",
  }
end
