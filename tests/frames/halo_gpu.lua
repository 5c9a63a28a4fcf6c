-- Frames whose stencil stages wait only for their neighbour blocks
-- (declared halos), checked on the GPU by test_halo_gpu.c against a CPU
-- reference: halo 1 and halo 2 smoothing chains ping-ponging x and y, and
-- a mix with a same-thread stage, a reduction (a grid barrier) and a
-- stage after it, on many_blocks (the test picks 1, 2, 3, 132 and all
-- co-resident blocks), one_block, thread_groups and hybrid kernels.
-- Every value is a short binary fraction: the reference compares with ==.
module { name = "halo_gpu", targets = { "cuda" } }

kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 0.25f * x(i > 0 ? i - 1 : i) + 0.5f * x(i) + 0.25f * x(i + 1 < n ? i + 1 : i);" }
kernel "smooth5" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 2 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 0.25f * (x(i >= 2 ? i - 2 : 0) + x(i + 2 < n ? i + 2 : n - 1)) + 0.5f * x(i);" }
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } }, body = "x(i) = 2.0f * x(i);" }
kernel "total" { pattern = "reduce", range = { "n" }, type = "f64",
  params = { { "v", "f32[n]" }, { "e", "f64[1]", access = "out" } }, value = "v(i)", into = "e" }

local xy = { { "x", "f32[n]" }, { "y", "f32[n]" } }
-- halo 1, four stages: x -> y -> x -> y -> x
frame "h1" { params = xy, stages = { { "smooth" }, { "smooth", x = "y", y = "x" },
                                     { "smooth" }, { "smooth", x = "y", y = "x" } } }
-- halo 2, three stages: x -> y -> x -> y
frame "h2" { params = xy, stages = { { "smooth5" }, { "smooth5", x = "y", y = "x" },
                                     { "smooth5" } } }
-- y = S(x); y *= 2 (same thread); x = S(y) (neighbours); e = sum x (grid
-- barrier); y = S(x) (already ordered by that barrier)
frame "mix" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f64[1]" } },
  stages = { { "smooth" }, { "scale", x = "y" }, { "smooth", x = "y", y = "x" },
             { "total", v = "x" }, { "smooth" } } }

local cmds = { "h1", "h2", "mix" }
persistent "many" { layout = "many_blocks", block = 256, commands = cmds }
persistent "one" { layout = "one_block", block = 1024, commands = cmds }
persistent "groups" { layout = "thread_groups", block = 256, groups = 4, commands = cmds }
persistent "hybrid" { layout = "hybrid", block = 256, groups = 2, blocks = 3, commands = cmds }
