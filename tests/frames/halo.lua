-- Stencil stages that declare a halo (halo = h on a view they read):
-- where a frame may wait only for the two neighbouring (pseudo-)blocks
-- instead of the whole grid, and every way out of that proof, which
-- keeps the grid barrier (expected/h*.txt: `gpugen explain halo.lua NAME`).
module { name = "halo", targets = { "cuda" } }

-- y = 3-point smoothing of x, reading x(i - 1) and x(i + 1) within bounds
kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 0.25f * x(i > 0 ? i - 1 : i) + 0.5f * x(i) + 0.25f * x(i + 1 < n ? i + 1 : i);" }
-- 5 points: halo 2
kernel "smooth5" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 2 }, { "y", "f32[n]", access = "out" } },
  body = [[y(i) = 0.25f * (x(i >= 2 ? i - 2 : 0) + x(i + 2 < n ? i + 2 : n - 1))
                + 0.5f * x(i);]] }
-- halo 300: more than the 256 indices a block of 256 takes per step
kernel "far" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 300 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i + 300 < n ? i + 300 : i);" }
-- the same with vector 4: 1024 indices per block and step, 300 fits
kernel "far4" { pattern = "for", range = { "n" }, vector = 4,
  params = { { "x", "f32[n]", halo = 300 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i + 300 < n ? i + 300 : i);" }
-- halo 1, but vector 2: another grid-stride mapping than smooth's
kernel "smooth_v2" { pattern = "for", range = { "n" }, vector = 2,
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 0.5f * x(i) + 0.5f * x(i + 1 < n ? i + 1 : i);" }
-- reads x(i + 1) without declaring a halo
kernel "next" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = i + 1 < n ? x(i + 1) : x(i);" }
-- a halo on a view it also writes: it could write a neighbour's chunk
kernel "rw" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1, access = "inout" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i + 1 < n ? i + 1 : i); x(i) = 0.0f;" }
-- a pointer into the halo view: the macro's check could be dodged
kernel "addr" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "const float *p = &x(i); y(i) = p[0];" }
-- reads y(i + 1) (no halo) inside the index of x, a halo view: its
-- macro checks only x's index, so y's use is not proven
kernel "sneak" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = x(y(i + 1 < n ? i + 1 : i) > 0.0f ? i : i);" }
-- reads x(i + 1) inside the index of x2, another halo view: the proof
-- scans inside a halo view's call like anywhere else, so x is a halo
-- read (a neighbour wait), not an own-index one (no barrier)
kernel "nest" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "x2", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x2(x(i + 1 < n ? i + 1 : i) > 0.0f ? i : i);" }
-- writes w at i + 4 inside the index of x, a halo view
kernel "hidew" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "w", "f32[n]", halo = 8, access = "inout" } },
  body = "w(i) = x((w(i + 4 < n ? i + 4 : i) = 7.0f, i));" }
-- declares its own gg_halo_index, which would replace the macro's check
kernel "shadow" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = [[struct { long long operator()(long long j, long long, long long) const { return j; } } gg_halo_index;
    y(i) = x(i + 1000 < n ? i + 1000 : i);]] }
-- a team stage on the same view
kernel "tcopy" { pattern = "team", league = "n", team_size = 256,
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "if (team_rank == 0) y(league_rank) = x(league_rank);" }
kernel "total" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
kernel "scale" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } }, body = "x(i) = 2.0f * x(i);" }

local xy = { { "x", "f32[n]" }, { "y", "f32[n]" } }
local function pp(k) return { { k }, { k, x = "y", y = "x" } } end

-- the smoothing chain ping-ponging x and y: a neighbour wait before every
-- stage but the first (read after write and write after read alike)
frame "h1" { params = xy, stages = { { "smooth" }, { "smooth", x = "y", y = "x" },
                                     { "smooth" }, { "smooth", x = "y", y = "x" } } }
-- halo 2, and halo 300 with vector 4 (1024 indices per block and step)
frame "h2" { params = xy, stages = pp("smooth5") }
frame "hfar4" { params = xy, stages = pp("far4") }
-- same thread (scale: x(i) only) between neighbour waits; a reduction
-- (grid barrier) and the neighbour wait after it
frame "hmix" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "smooth" }, { "scale", x = "y" }, { "smooth", x = "y", y = "x" },
             { "total", v = "x" }, { "smooth" } } }
-- every way out keeps the grid barrier: a halo larger than the chunk,
-- another vector width, a read at an offset without a halo, a halo on a
-- written view, a pointer into the view, another view read at an offset
-- inside a halo view's index, a team stage
frame "hfar" { params = xy, stages = pp("far") }
frame "hvec" { params = xy, stages = { { "smooth" }, { "smooth_v2", x = "y", y = "x" } } }
frame "hnext" { params = xy, stages = { { "smooth" }, { "next", x = "y", y = "x" } } }
frame "hrw" { params = xy, stages = { { "smooth" }, { "rw", x = "y", y = "x" } } }
frame "haddr" { params = xy, stages = { { "smooth" }, { "addr", x = "y", y = "x" } } }
frame "hsneak" { params = xy, stages = { { "smooth" }, { "sneak" } } }
frame "hteam" { params = xy, stages = { { "smooth" }, { "tcopy", x = "y", y = "x" } } }
frame "hnest" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" } },
  stages = { { "scale" }, { "nest", x2 = "z" } } }
frame "hhidew" { params = xy, stages = { { "smooth" }, { "hidew", x = "x", w = "y" } } }
frame "hshadow" { params = xy, stages = { { "smooth" }, { "shadow", x = "y", y = "x" } } }
-- run by a kernel of 64-thread pseudo-blocks too: the chunk is 64, so
-- halo 1 still waits for neighbours while halo 300 with vector 4 does not
frame "hgroups" { params = xy, stages = { { "smooth" }, { "smooth", x = "y", y = "x" },
                                          { "far4" }, { "far4", x = "y", y = "x" } } }
-- run by no persistent kernel: no chunk, grid barriers
frame "hidle" { params = xy, stages = pp("smooth") }
-- stage 1 overwrites x, whose halo stage 0 read from memory: a neighbour
-- wait; stage 2 writes x too, but its only neighbour dependency (on stage
-- 0) is behind that wait, and on stage 1 it stays in each thread: a block
-- barrier, with or without the halo exchange
kernel "put" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "out" } }, body = "x(i) = 1.0f;" }
frame "hput" { params = xy, stages = { { "smooth" }, { "put" }, { "put" } } }

persistent "p" { layout = "many_blocks", block = 256,
  commands = { "h1", "h2", "hfar4", "hmix", "hfar", "hvec", "hnext", "hrw", "haddr", "hsneak", "hteam",
               "hgroups", "hnest", "hhidew", "hshadow", "hput" } }
persistent "tg" { layout = "thread_groups", block = 256, groups = 4, commands = { "hgroups" } }
