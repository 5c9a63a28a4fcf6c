-- xchg_bench.lua: the workloads of bench/xchg_bench.c - an all-reduce
-- across GPUs inside a frame (NVSHMEM, docs/multi-gpu.md) against the same
-- stage kernel and NCCL's all-reduce in a CUDA graph, and the same work
-- on one GPU.  Payloads of 1K and 32K floats (4 KiB and 128 KiB), on 2
-- and 4 GPUs; and the exchange of a corner turn (an alltoall of 2 MiB)
-- against NCCL's grouped sends and receives.
module { name = "xchg_bench", targets = { "cuda" } }

-- in this order (pairs() would give the module's kernels in a different
-- order from one run of gpugen to the next)
local sizes = { { "1k", 1024 }, { "32k", 32768 } }
for _, size in ipairs(sizes) do
  local tag, n = size[1], size[2]
  -- each GPU's part: e = x + x (the stage kernel both sides run)
  kernel("twice_" .. tag) { pattern = "for", range = { n },
    params = { { "x", "f32[" .. n .. "]" }, { "e", "f32[" .. n .. "]", access = "out" } },
    body = "e(i) = x(i) + x(i);" }
  for _, g in ipairs({ 2, 4 }) do
    frame("ar" .. g .. "_" .. tag) { gpus = g,
      params = { { "x", "f32[" .. n .. "]" }, { "e", "f32[" .. n .. "]" } },
      stages = { { "twice_" .. tag }, { exchange = "allreduce", view = "e", op = "sum" } } }
    -- the same total work on one GPU: every GPU's x, one after the other
    kernel("all" .. g .. "_" .. tag) { pattern = "for", range = { n },
      params = { { "x", "f32[" .. g .. "][" .. n .. "]" }, { "e", "f32[" .. n .. "]", access = "out" } },
      body = "float s = 0.0f; for (int r = 0; r < " .. g .. "; ++r) s += x(r, i) + x(r, i); e(i) = s;" }
    frame("one" .. g .. "_" .. tag) {
      params = { { "x", "f32[" .. g .. "][" .. n .. "]" }, { "e", "f32[" .. n .. "]" } },
      stages = { { "all" .. g .. "_" .. tag } } }
  end
end

-- the corner turn's exchange: 64 x 4096 complex values (f32 [64][8192],
-- re and im side by side), each GPU's rows computed (a = x + x), then an
-- alltoall: block q of GPU p becomes block p of GPU q.  The transpose
-- after it, the same on every side, is left out.
kernel "fill_ct" { pattern = "for", range = { 64, 8192 }, index = { "i", "j" },
  params = { { "x", "f32[524288]" }, { "a", "f32[64][8192]", access = "out" } },
  body = "a(i, j) = x(8192 * i + j) + x(8192 * i + j);" }
for _, g in ipairs({ 2, 4 }) do
  frame("ct" .. g) { gpus = g,
    params = { { "x", "f32[524288]" }, { "a", "f32[64][8192]" } },
    stages = { { "fill_ct" }, { exchange = "alltoall", view = "a" } } }
end
frame "ct_one" { params = { { "x", "f32[524288]" }, { "a", "f32[64][8192]" } },
  stages = { { "fill_ct" } } }

-- the halo stencil chain: a smoothing stencil S times (S = 1, 4, 8) over
-- 2M floats and two fixed boundary values, ping-ponging between x and y.
-- On N GPUs each holds its part, n = 2M / N + 2 rows with a ghost row at
-- each end, and a halo stage fills the ghost rows before each step; on
-- one GPU the whole array, n = 2M + 2.  Rows 0 and n - 1 are copied:
-- the boundary values (or ghosts the next halo overwrites).
kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = i == 0 || i == n - 1 ? x(i) : 0.25f * x(i - 1) + 0.5f * x(i) + 0.25f * x(i + 1);" }
local steps = { 1, 4, 8 }
local function chain(s, gpus)
  local st = {}
  for i = 1, s do
    local from, to = i % 2 == 1 and "x" or "y", i % 2 == 1 and "y" or "x"
    if gpus > 1 then st[#st + 1] = { exchange = "halo", view = from } end
    st[#st + 1] = { "smooth", x = from, y = to }
  end
  return st
end
for _, s in ipairs(steps) do
  for _, g in ipairs({ 1, 2, 4 }) do
    frame("st" .. g .. "_" .. s) { gpus = g > 1 and g or nil,
      params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = chain(s, g) }
  end
end

for _, g in ipairs({ 2, 4 }) do
  persistent("team" .. g) { layout = "many_blocks", block = 256,
    commands = { "ar" .. g .. "_1k", "ar" .. g .. "_32k", "ct" .. g,
                 "st" .. g .. "_1", "st" .. g .. "_4", "st" .. g .. "_8" } }
end
persistent "single" { layout = "many_blocks", block = 256,
  commands = { "one2_1k", "one2_32k", "one4_1k", "one4_32k", "ct_one", "st1_1", "st1_4", "st1_8" } }
