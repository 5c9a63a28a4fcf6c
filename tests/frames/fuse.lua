-- A reduce stage that reads, at its own index only, what the for stage
-- just before it wrote at its own index runs that stage inside its fold
-- (fused: no barrier, the values from registers), and every way out of
-- that proof keeps the barrier (expected/fuse_*.txt: `gpugen explain
-- fuse.lua NAME`).
module { name = "fuse", targets = { "cuda", "hip" } }

kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
kernel "sum" { pattern = "reduce", range = { "n" }, type = "f64",
  params = { { "v", "f32[n]" }, { "e", "f64[1]", access = "out" } }, value = "v(i)", into = "e" }
-- reads the next element: another thread wrote it
kernel "next_sum" { pattern = "reduce", range = { "n" }, type = "f64",
  params = { { "v", "f32[n]" }, { "e", "f64[1]", access = "out" } },
  value = "v(i + 1 < n ? i + 1 : i)", into = "e" }
-- two indices per thread and step: another mapping than the fold's
kernel "scale2" { pattern = "for", range = { "n" }, vector = 2,
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
-- reads e, which the reduction after it writes
kernel "adde" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "e", "f64[1]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i) + (float)e(0);" }
-- 2-D, row-major (j contiguous), and a reduction over the same range
-- that decodes its linear index the same way (right) or the other (left)
kernel "s2" { pattern = "for", range = { "r", "c" },
  params = { { "x", "f32[r][c]" }, { "y", "f32[r][c]", access = "out" } },
  body = "y(i, j) = 2.0f * x(i, j);" }
kernel "t2" { pattern = "reduce", range = { "r", "c" }, type = "f64",
  params = { { "v", "f32[r][c]" }, { "e", "f64[1]", access = "out" } }, value = "v(i, j)", into = "e" }
-- (two column-major views outvote v: i varies fastest)
kernel "t2l" { pattern = "reduce", range = { "r", "c" }, type = "f64",
  params = { { "v", "f32[r][c]" }, { "a", "f32[r][c]", layout = "left" },
             { "b", "f32[r][c]", layout = "left" }, { "e", "f64[1]", access = "out" } },
  value = "v(i, j) + a(i, j) * b(i, j)", into = "e" }
-- reads a view a stage before the for stage wrote, at the mirrored index:
-- a grid barrier, so no fusion either
kernel "mirror_sum" { pattern = "reduce", range = { "n" }, type = "f64",
  params = { { "v", "f32[n]" }, { "z", "f32[n]" }, { "e", "f64[1]", access = "out" } },
  value = "v(i) * z(n - 1 - i)", into = "e" }
kernel "head_sum" { pattern = "reduce", range = { "m" }, type = "f64",
  params = { { "v", "f32[n]" }, { "w", "f32[m]" }, { "e", "f64[1]", access = "out" } },
  value = "v(i) + w(i)", into = "e" }
kernel "dup" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i);" }

local p = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f64[1]" } }
frame "fused" { params = p, stages = { { "scale" }, { "sum", v = "y" } } }
frame "next" { params = p, stages = { { "scale" }, { "next_sum", v = "y" } } }
frame "vec2" { params = p, stages = { { "scale2" }, { "sum", v = "y" } } }
frame "writes" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f64[1]" } },
  stages = { { "adde" }, { "sum", v = "y" } } }
-- the reduction over the first m indices only: another range (fused, the
-- for body would run on those alone)
frame "range" { params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "w", "f32[m]" },
                            { "e", "f64[1]" } },
  stages = { { "scale" }, { "head_sum", v = "y" } } }
frame "rows" { params = { { "x", "f32[r][c]" }, { "y", "f32[r][c]" }, { "e", "f64[1]" } },
  stages = { { "s2" }, { "t2", v = "y" } } }
frame "cols" { params = { { "x", "f32[r][c]" }, { "y", "f32[r][c]" }, { "e", "f64[1]" },
                           { "a", "f32[r][c]", layout = "left" }, { "b", "f32[r][c]", layout = "left" } },
  stages = { { "s2" }, { "t2l", v = "y" } } }
frame "mirror" { params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" }, { "e", "f64[1]" } },
  stages = { { "dup", y = "z" }, { "scale" }, { "mirror_sum", v = "y" } } }

-- scale publishes y's chunk edges for a halo stage here (halo exchange)
-- and is fused into sum in "fused": one body for both (compiled by
-- frames.check_fuse_module)
kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 0.5f * x(i) + 0.5f * x(i + 1 < n ? i + 1 : i);" }
frame "pub" { params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" } },
  stages = { { "scale" }, { "smooth", x = "y", y = "z" } } }

persistent "p" { layout = "many_blocks", block = 256,
  commands = { "fused", "next", "vec2", "writes", "range", "rows", "cols", "mirror", "pub" } }
