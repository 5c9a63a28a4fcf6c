-- Kernel names that spell what gpugen generates for another declaration.
-- Every helper a pattern renders for kernel K (its body, the for
-- pattern's gg_at / gg_xat / halo io struct, the scan's block body, a
-- custom combine, a frame's function, ...) lives in namespace GG_NS_<K>,
-- and a persistent kernel's slot constants inside its function
-- (gen/names.h), so a kernel named like one of them, or like one of them
-- joined to another declaration's name (body_x next to x: once both
-- gg_body_x), must compile with NVRTC and hiprtc.  The fft and gemm
-- helpers (MathDx, CUDA only) are in helper_names_mathdx.lua.
module { name = "helper_names", targets = { "cuda", "hip" } }

-- what the templates and gen/*.c named per kernel, or name inside a
-- kernel's namespace or function now: each a kernel name of its own
local roles = { "body", "body_block", "at", "xat", "io", "frame", "combine", "gemm", "fft",
                "fft_back", "fft_load", "fft_store", "fft_stmts", "fft_post_shared", "fft_items",
                "min_blocks", "stage", "load", "run", "store", "acc", "pre", "args_words",
                "args_bytes", "nw", "batch" }

local n = { { "x", "f32[n]", access = "inout" } }
local r = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } }

-- one kernel of every pattern (and every reduce strategy)
local base = {
  x = { pattern = "for", range = { "n" }, params = n, body = "x(i) = 2.0f * x(i);" },
  h = { pattern = "for", range = { "n" }, params = { { "x", "f32[n]", halo = 1 },
        { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i > 0 ? i - 1 : i);" },
  s = { pattern = "scan", kind = "inclusive", range = { "n" },
        params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } }, value = "x(i)", into = "y" },
  e = { pattern = "scan", kind = "exclusive", range = { "n" },
        params = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } }, value = "x(i)", into = "y" },
  tr = { pattern = "tile_reduce", tile = 16, range = { "n" },
         params = { { "x", "f32[n]" }, { "out", "f32[nt]", access = "out" } }, value = "x(i)", into = "out" },
  m = { pattern = "team", league = 4, team_size = 64, params = n, scratch = { { "w", "f32[64]" } },
        body = "if (team_rank == 0 && league_rank < n) x(league_rank) = 1.0f;" },
  q = { pattern = "team", league = "n", team_size = 64, params = r, op = "sum", into = "out",
        body = "contribute(x(league_rank));" },
  c = { pattern = "reduce", range = { "n" }, params = r, value = "fabsf(x(i))",
        combine = "fmaxf(a, b)", identity = "0.0f", into = "out" },
  v = { pattern = "reduce", range = { "n" }, params = { { "x", "f32[n]" }, { "out", "f64[2]", access = "out" } },
        value = { "x(i)", "x(i) * x(i)" }, type = "f64", into = "out" },
}
for _, s in ipairs({ "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree", "cg_tile",
                     "deterministic", "grid_sync" }) do
  base["r_" .. s] = { pattern = "reduce", range = { "n" }, params = r, value = "x(i)", into = "out",
                      strategy = s }
end

-- frames over them: a fused for + reduce (gg_at), a halo exchange
-- (gg_xat and its io struct), and other patterns as stages
local frames = {
  fu = { params = { { "x", "f32[n]" }, { "out", "f32[1]" } },
         stages = { { "x" }, { "r_warp_shuffle" } } },
  fs = { params = { { "x", "f32[n]" }, { "out", "f32[1]" } },
         stages = { { "x" }, { "r_shared_atomic" } } },
  hx = { params = { { "x", "f32[n]" }, { "y", "f32[n]" } },
         stages = { { "h" }, { "h", x = "y", y = "x" }, { "h" } } },
  ps = { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "out", "f32[1]" } },
         stages = { { "s" }, { "c", x = "y" }, { "q", x = "y" }, { "m" } } },
}
-- persistent kernels running kernels and frames
local persistents = {
  p = { commands = { "x", "hx", "fu", "s", "q" }, layout = "many_blocks" },
  pb = { commands = { "body", "ps", "fs" } },
  pr = { commands = { "x", "body_x" }, buffering = { ring = 4 } },
}

-- the helpers of each declaration's pattern, as gg_<helper>_<name> was
-- spelled (GG_P_NW_<name>, ... for a persistent kernel)
local helpers = {
  x = { "at", "xat", "io" }, h = { "at", "xat", "io" }, s = { "body_block" }, e = { "body_block" },
  c = { "combine" }, fu = { "frame" }, fs = { "frame" }, hx = { "frame" }, ps = { "frame" },
  p = { "P_NW", "P_WORDS", "P_ARGS", "P_BATCH", "MIN_BLOCKS_gg_persist" },
  pb = { "P_NW", "P_WORDS" }, pr = { "P_ARGS", "P_BATCH" },
}

local function sorted(t)
  local v = {}
  for k in pairs(t) do v[#v + 1] = k end
  table.sort(v)
  return v
end
local names = sorted(base)
for _, f in ipairs(sorted(frames)) do names[#names + 1] = f end
for _, p in ipairs(sorted(persistents)) do names[#names + 1] = p end

local declared = {}
for _, b in ipairs(names) do declared[b] = true end
local function plain(name)
  if declared[name] then return end
  declared[name] = true
  kernel (name) { pattern = "for", range = { "n" }, params = n, body = "x(i) = x(i) + 1.0f;" }
end

for _, b in ipairs(sorted(base)) do kernel (b) (base[b]) end
for _, role in ipairs(roles) do plain(role) end
-- every declaration's body and namespace (GG_NS_<name>), either side
for _, b in ipairs(names) do
  plain("body_" .. b)
  plain(b .. "_body")
  plain("NS_" .. b)
end
for _, b in ipairs(sorted(helpers)) do
  for _, role in ipairs(helpers[b]) do plain(role .. "_" .. b) end
end
for _, f in ipairs(sorted(frames)) do frame (f) (frames[f]) end
for _, p in ipairs(sorted(persistents)) do persistent (p) (persistents[p]) end
