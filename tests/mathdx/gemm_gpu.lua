-- gemm (cuBLASDx, tiled over blocks) checked on the GPU by test_gemm_gpu.c:
-- every input type with every transpose, at sizes that are not multiples
-- of the tile (40^3, 48x24x72, 12x20x28, 100x36x52, 130x128x64) and at
-- 128^3 (16 blocks of 32 x 32 per product), with a run-time batch b next
-- to the view B (their header constants are GG_GEMM_GPU_<K>_b and _B);
-- several kernels set tile = { tm, tn, tk } so that K takes several steps,
-- the last one partial.  As kernels, as persistent commands, and as the
-- first stage of frames.
module { name = "gemm_gpu", targets = { "cuda" } }

local function gemm(name, t, m, n, k, op_a, op_b, extra)
  local tin, tc = t, (t == "f64") and "f64" or "f32"
  local function ext(r, c) return string.format("[b][%d][%d]", r, c) end
  local spec = { pattern = "gemm", size = { m, n, k }, op_a = op_a, op_b = op_b,
    params = { { "A", tin .. (op_a == "t" and ext(k, m) or ext(m, k)) },
               { "B", tin .. (op_b == "t" and ext(n, k) or ext(k, n)) },
               { "C", tc .. ext(m, n), access = extra.access or "inout" } },
    a = "A", b = "B", c = "C", alpha = extra.alpha, beta = extra.beta, tile = extra.tile,
    split_k = extra.split_k }
  for _, p in ipairs(extra.scalars or {}) do table.insert(spec.params, p) end
  kernel(name)(spec)
end

-- f32: alpha and beta at run time (g40, g128), constants elsewhere
gemm("g40", "f32", 40, 40, 40, "n", "n",
     { alpha = "alpha", beta = "beta", scalars = { { "alpha", "f32" }, { "beta", "f32" } } })
gemm("g128", "f32", 128, 128, 128, "n", "n",
     { alpha = "alpha", beta = "beta", scalars = { { "alpha", "f32" }, { "beta", "f32" } } })
gemm("g48t", "f32", 48, 24, 72, "t", "n", { alpha = 1.5, access = "out" })
-- beta -0.0 is beta 0: C is not read, so access "out" is allowed
gemm("g100", "f32", 100, 36, 52, "n", "t", { alpha = -2, beta = -0.0, access = "out",
     tile = { 32, 16, 16 } })
gemm("g130", "f32", 130, 128, 64, "t", "t", { alpha = 0.5, beta = 2 })
-- f64
gemm("d64", "f64", 64, 64, 64, "n", "t", { alpha = 2, beta = -1 })
gemm("d100", "f64", 100, 36, 52, "n", "n", { alpha = 1, beta = 0.5 })
gemm("d40", "f64", 40, 40, 40, "t", "n", { alpha = -1, access = "out", tile = { 16, 32, 16 } })
gemm("d130", "f64", 130, 128, 64, "t", "t", { alpha = 3, beta = 1, tile = { 32, 32, 16 } })
gemm("d128", "f64", 128, 128, 128, "t", "n", { alpha = 1, beta = -2 })
-- f16 in, f32 accumulation on tensor cores
gemm("h48", "f16", 48, 24, 72, "t", "t", { access = "out" })
gemm("h130", "f16", 130, 128, 64, "n", "n", { alpha = 2, beta = 0.5, tile = { 64, 32, 32 } })
gemm("h12", "f16", 12, 20, 28, "t", "n", { alpha = -1, beta = 1, tile = { 16, 16, 16 } })
gemm("h40", "f16", 40, 40, 40, "n", "t", { alpha = 0.25, access = "out" })
gemm("h128", "f16", 128, 128, 128, "t", "n", { alpha = 1, beta = 1 })
-- bf16 in, f32 accumulation
gemm("b64", "bf16", 64, 64, 64, "n", "n", { alpha = 0.5, beta = 0.25 })
gemm("b100", "bf16", 100, 36, 52, "n", "t", { alpha = 1, beta = -1 })
gemm("b130", "bf16", 130, 128, 64, "t", "n", { alpha = -0.5, access = "out", tile = { 16, 32, 48 } })
gemm("b40", "bf16", 40, 40, 40, "t", "t", { alpha = 1, beta = 3 })
gemm("b128", "bf16", 128, 128, 128, "n", "n", { alpha = 1, access = "out" })

-- f32 K steps of all of K, not padded to 16 (FMAs): 37 with both panels
-- whole and copied by cuBLASDx (A stored K x M, rows of 64), 3 with B's
-- copied and A's (rows of 3 floats, not 16-byte aligned) not
gemm("g37", "f32", 64, 64, 37, "t", "n", { alpha = 1, beta = 1 })
gemm("g3", "f32", 64, 48, 3, "n", "n", { alpha = -1, access = "out" })

-- split_k: K in ranges on groups of blocks (K's steps 10 in 3 ranges of
-- 3, 3, 4; 150 in 4; 256 in 4; 200 in 5), each type once
gemm("g40s", "f32", 40, 24, 300, "n", "n",
     { alpha = "alpha", beta = "beta", scalars = { { "alpha", "f32" }, { "beta", "f32" } },
       tile = { 16, 16, 32 }, split_k = 3 })
gemm("d37s", "f64", 37, 29, 150, "n", "t", { alpha = 2, beta = -1, split_k = 4 })
gemm("h64s", "f16", 64, 64, 256, "t", "n", { alpha = 1, beta = 0.5, split_k = 4 })
gemm("b48s", "bf16", 48, 40, 200, "n", "n", { alpha = -0.5, access = "out", split_k = 5 })

-- one matrix (rank-2 views, no batch), odd sizes, A and B transposed
kernel "one" { pattern = "gemm", size = { 12, 20, 28 }, op_a = "t", op_b = "t",
  params = { { "A", "f32[28][12]" }, { "B", "f32[20][28]" }, { "C", "f32[12][20]", access = "inout" } },
  a = "A", b = "B", c = "C", alpha = -1, beta = 3 }

-- frames: C = alpha A B + beta C, then C *= s (depends on the product):
-- frame `name` of gemm `g` (f32, m x n x k, batch b) and its scale kernel
local function scaled_frame(name, g, scale, m, n, k)
  local function f32(r, c) return string.format("f32[b][%d][%d]", r, c) end
  kernel (scale) { pattern = "for", range = { "b", m, n },
    params = { { "C", f32(m, n), access = "inout" }, { "s", "f32" } },
    body = "C(i, j, k) *= s;" }
  frame (name) {
    params = { { "A", f32(m, k) }, { "B", f32(k, n) }, { "C", f32(m, n) },
      { "alpha", "f32" }, { "beta", "f32" }, { "s", "f32" } },
    stages = { { g }, { scale } },
  }
end
scaled_frame("fr", "g40", "scale", 40, 40, 40)
scaled_frame("fr128", "g128", "scale128", 128, 128, 128)
scaled_frame("frs", "g40s", "scale_s", 40, 24, 300)

persistent "p_one" { layout = "one_block", block = 128, commands = { "g40", "fr", "g128", "fr128", "g40s" } }
-- 10 blocks: 3 groups of 3 for g40s, the tenth idle in its stage
persistent "p_split" { layout = "many_blocks", blocks = 10, block = 128, commands = { "g40s", "frs" } }
persistent "p_many" { layout = "many_blocks", block = 128, commands = { "g40", "fr", "g128", "fr128" } }
