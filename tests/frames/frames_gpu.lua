-- Frames checked on the GPU by test_frames_gpu.c: chains of 1, 2, 4 and 8
-- dependent stages of y = 0.5 y + x (each reads y only where its own
-- thread wrote it: no barrier), independent stages (no barrier), a mix
-- with two reductions (a workspace per stage), a step fused into the sum
-- after it, and a chain whose stages
-- need their barriers (a neighbour read, another range, a reduction), on
-- one_block, many_blocks, hybrid and thread_groups persistent kernels.  Every value is exact in f32
-- and every sum exact in f64, so the CPU reference compares with ==.
module { name = "frames_gpu", targets = { "cuda" } }

kernel "step" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = 0.5f * y(i) + x(i);" }
kernel "next" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = i + 1 < n ? x(i + 1) : x(i);" }
kernel "head" { pattern = "for", range = { "m" },
  params = { { "w", "f32[m]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = y(i) + w(i);" }
kernel "total" { pattern = "reduce", range = { "n" }, type = "f64",
  params = { { "v", "f32[n]" }, { "e", "f64[1]", access = "out" } }, value = "v(i)", into = "e" }

local function chain(name, s)
  local st = {}
  for i = 1, s do st[i] = { "step" } end
  frame (name) { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = st }
end
chain("d1", 1) chain("d2", 2) chain("d4", 4) chain("d8", 8)

-- 2 and 8 independent stages: no grid barrier at all
frame "i2" { params = { { "x", "f32[n]" }, { "y1", "f32[n]" }, { "y2", "f32[n]" } },
  stages = { { "step", y = "y1" }, { "step", y = "y2" } } }
local ps, st = { { "x", "f32[n]" } }, {}
for i = 1, 8 do ps[#ps + 1] = { "y" .. i, "f32[n]" }; st[i] = { "step", y = "y" .. i } end
frame "i8" { params = ps, stages = st }

-- 4 stages: step; total of x (independent: starts at once); step (after
-- the first); total of y (after the second step)
frame "m4" {
  params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "e1", "f64[1]" }, { "e2", "f64[1]" } },
  stages = { { "step" }, { "total", v = "x", e = "e1" }, { "step" }, { "total", v = "y", e = "e2" } },
}

-- 5 stages, a grid barrier before each but the first: y = 0.5 y + x;
-- y2(i) = y(i + 1) (a neighbour); y = 0.5 y + y2 (writes the y stage 1
-- read at i + 1); y(i) += w(i) for i < m (another range); e1 = sum y
frame "nb" {
  params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "y2", "f32[n]" }, { "w", "f32[m]" },
             { "e1", "f64[1]" } },
  stages = { { "step" }, { "next", x = "y", y = "y2" }, { "step", x = "y2", y = "y" },
             { "head" }, { "total", v = "y", e = "e1" } },
}

-- a step, then the sum of the y it wrote: the sum's fold runs the step's
-- body index by index (fused, gen/frame_deps.c), with shared-memory atomics
-- (m4's last total is fused too, with the default strategy)
kernel "total_sa" { pattern = "reduce", range = { "n" }, type = "f64", strategy = "shared_atomic",
  params = { { "v", "f32[n]" }, { "e", "f64[1]", access = "out" } }, value = "v(i)", into = "e" }
frame "fz" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "e1", "f64[1]" } },
  stages = { { "step" }, { "total_sa", v = "y", e = "e1" } } }

local cmds = { "d1", "d2", "d4", "d8", "i2", "i8", "m4", "nb", "fz", "step" }
persistent "p_one_block" { layout = "one_block", block = 256, commands = cmds }
persistent "p_many_blocks" { layout = "many_blocks", block = 256, commands = cmds }
persistent "p_hybrid" { layout = "hybrid", block = 512, groups = 2, commands = cmds }
persistent "p_groups" { layout = "thread_groups", block = 512, groups = 4, commands = cmds }
