-- The bf16 inputs of reduce_all.lua's strategies, summed in f32: cuda
-- only (hiprtc 5.2 has no bf16 type), so reduce_all.lua keeps both targets.
-- Names as in reduce_all.lua: r_<strategy>_sum_bf16.
module { name = "reduce_bf16", targets = { "cuda" } }

for _, s in ipairs({ "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                     "cg_tile", "grid_sync", "deterministic", "auto" }) do
  kernel ("r_" .. s .. "_sum_bf16") {
    pattern = "reduce", range = { "n" },
    params = { { "x", "bf16[n]" }, { "out", "f32[1]", access = "out" } },
    value = "x(i)", op = "sum", into = "out", strategy = s, type = "f32", allow_cas = true,
  }
end
