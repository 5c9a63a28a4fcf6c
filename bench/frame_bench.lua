-- frame_bench.lua: the workload of bench/frame_bench.c - S = 1, 2, 4, 8
-- dependent stages as frames (one handshake per frame), and the same
-- kernels for classic launches, CUDA graphs and graphs with programmatic
-- dependent launch.  Two kinds of chain:
--   s<S>: y = 0.5 y + x, S times.  Each stage reads y only at the index the
--         stage before wrote it, on the same range: the dependency stays in
--         one thread, so the frame needs no barrier at all (gpugen explain).
--   m<S>: a smoothing stencil, S times, ping-ponging between x and y:
--         each stage reads its input at i - 1 and i + 1, which other
--         threads wrote in the stage before: a grid barrier every stage.
--   mh<S>: the same stencil declaring halo = 1 on its input: the second
--         stage waits only for its two neighbour blocks, the later ones
--         only for their own block: the neighbours' chunk edges come in
--         tagged words (the halo exchange; gpugen explain).
module { name = "frame_bench", targets = { "cuda" } }

kernel "step" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = 0.5f * y(i) + x(i);" }

kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
    const long long l = i > 0 ? i - 1 : i, r = i + 1 < n ? i + 1 : i;
    y(i) = 0.25f * x(l) + 0.5f * x(i) + 0.25f * x(r);]] }

-- the same stencil with halo = 1 on its input, reading x(i - 1) and
-- x(i + 1) in the view's calls (each checked against the own index)
kernel "smooth_h" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 0.25f * x(i > 0 ? i - 1 : i) + 0.5f * x(i) + 0.25f * x(i + 1 < n ? i + 1 : i);" }

local cmds = {}
for _, s in ipairs { 1, 2, 4, 8 } do
  local st, sm, sh = {}, {}, {}
  for i = 1, s do
    st[i] = { "step" }
    sm[i] = i % 2 == 1 and { "smooth" } or { "smooth", x = "y", y = "x" }
    sh[i] = i % 2 == 1 and { "smooth_h" } or { "smooth_h", x = "y", y = "x" }
  end
  frame ("s" .. s) { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = st }
  frame ("m" .. s) { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = sm }
  frame ("mh" .. s) { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = sh }
  cmds[#cmds + 1] = "s" .. s
  cmds[#cmds + 1] = "m" .. s
  cmds[#cmds + 1] = "mh" .. s
end

-- the whole GPU (the bench sets blocks at run time: 16, 132, 264) and one block
persistent "whole" { layout = "many_blocks", block = 256, commands = cmds }
persistent "one" { layout = "one_block", block = 1024, commands = cmds }
