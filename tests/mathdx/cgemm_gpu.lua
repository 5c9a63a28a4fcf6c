-- complex gemm (type = "complex": c32 and c64, cuBLASDx complex) checked on
-- the GPU by test_cgemm_gpu.c: ops n, t and c (conjugate transposed) on A
-- and B, at 37 x 53 x 29 (no side a multiple of the tile: edge tiles, a
-- K pad), at 64^3 and 32^3 (tile multiples), one matrix ([rows][cols][2])
-- and batches ([b][rows][2 x cols]), a written tile whose K takes two
-- steps (the last partial), alpha and beta { re, im } at run time, and
-- constants with beta 0 (C "out", never read), K split over blocks.  As
-- kernels, persistent commands and the first stage of a frame (c32: fr,
-- c64: frz).
module { name = "cgemm_gpu", targets = { "cuda" } }

-- cg(name, precision, M, N, K, op_a, op_b, batched, extra): A, B, C, then
-- ar, ai, br, bi (alpha and beta at run time) unless extra.alpha is given,
-- then the batch extent b when batched
local function cg(name, t, m, n, k, op_a, op_b, batched, extra)
  extra = extra or {}
  local function ext(r, c)
    if batched then return string.format("[b][%d][%d]", r, 2 * c) end
    return string.format("[%d][%d][2]", r, c)
  end
  local spec = { pattern = "gemm", type = "complex", size = { m, n, k }, op_a = op_a, op_b = op_b,
    params = { { "A", t .. (op_a == "n" and ext(m, k) or ext(k, m)) },
               { "B", t .. (op_b == "n" and ext(k, n) or ext(n, k)) },
               { "C", t .. ext(m, n), access = extra.access or "inout" } },
    a = "A", b = "B", c = "C", tile = extra.tile, split_k = extra.split_k }
  if extra.alpha then
    spec.alpha, spec.beta = extra.alpha, extra.beta
  else
    for _, s in ipairs({ "ar", "ai", "br", "bi" }) do table.insert(spec.params, { s, t }) end
    spec.alpha, spec.beta = { "ar", "ai" }, { "br", "bi" }
  end
  kernel(name)(spec)
end

-- c32 at 37 x 53 x 29: every op on each side
cg("c_nn", "f32", 37, 53, 29, "n", "n", true)
cg("c_tc", "f32", 37, 53, 29, "t", "c", true)
cg("c_ct", "f32", 37, 53, 29, "c", "t", false)
cg("c_cc", "f32", 37, 53, 29, "c", "c", true)
cg("c_nc", "f32", 37, 53, 29, "n", "c", false)
cg("c_cn", "f32", 37, 53, 29, "c", "n", true, { tile = { 16, 32, 16 } }) -- K in 2 steps
-- c32 tile multiples
cg("c64_nn", "f32", 64, 64, 64, "n", "n", true)
cg("c64_cc", "f32", 64, 64, 64, "c", "c", false)
-- c32 K steps of all of K, not padded to 16: 3 with both panels whole and
-- copied by cuBLASDx; 37 with A's copied, B's (rows of 37 complex) not
cg("c_k3", "f32", 64, 48, 3, "c", "n", true)
cg("c_k37", "f32", 32, 64, 37, "t", "c", false)
-- constants: alpha { 0.5, -1.5 }, beta 0 (C is "out": not read)
cg("c_const", "f32", 37, 53, 29, "c", "n", true, { alpha = { 0.5, -1.5 }, access = "out" })
-- split_k: K = 100 in 4 ranges (c32, batched) and 3 (c64), each on its own block
cg("c_split", "f32", 37, 29, 100, "c", "n", true, { split_k = 4 })
cg("z_split", "f64", 37, 29, 100, "n", "t", false, { split_k = 3 })
-- c64
cg("z_nn", "f64", 37, 53, 29, "n", "n", false)
cg("z_ct", "f64", 37, 53, 29, "c", "t", true)
cg("z_tc", "f64", 37, 53, 29, "t", "c", true)
cg("z_cc", "f64", 37, 53, 29, "c", "c", false, { tile = { 16, 16, 16 } })
cg("z32_tn", "f64", 32, 32, 32, "t", "n", true)
cg("z_const", "f64", 37, 53, 29, "n", "c", false, { alpha = 2, beta = { 0, 1 } })

-- scaled(frame, gemm, scale, t): a frame of gemm (37 x 53 x 29, A and B
-- transposed or conjugated, batched) then C scaled by the real s, in
-- precision t
local function scaled(name, gemm, scale, t)
  kernel(scale) { pattern = "for", range = { "b", 37, 106 },
    params = { { "C", t .. "[b][37][106]", access = "inout" }, { "s", t } },
    body = "C(i, j, k) *= s;" }
  frame(name) {
    params = { { "A", t .. "[b][29][74]" }, { "B", t .. "[b][53][58]" }, { "C", t .. "[b][37][106]" },
      { "ar", t }, { "ai", t }, { "br", t }, { "bi", t }, { "s", t } },
    stages = { { gemm }, { scale } },
  }
end
scaled("fr", "c_cc", "cscale", "f32")  -- c32
scaled("frz", "z_tc", "zscale", "f64") -- c64

persistent "p_one" { layout = "one_block", block = 128, commands = { "c_cc", "fr", "z_tc", "frz" } }
persistent "p_many" { layout = "many_blocks", block = 128, commands = { "c_cc", "fr", "z_tc", "frz" } }
