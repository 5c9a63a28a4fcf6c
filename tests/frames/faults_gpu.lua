-- faults_gpu.lua: frames whose second stage traps or hangs on one element
-- (test_faults_gpu.c), one whose stage lies about its halo, one that hangs
-- before a neighbour wait, and a frame that runs (checked against the CPU
-- before each fault, so a broken chain cannot pass as a fault).
module { name = "faults_gpu", targets = { "cuda" } }

kernel "twice" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = 2.0f * x(i);" }

-- reads y at the mirrored index: a grid barrier before it
kernel "mirror" { pattern = "for", range = { "n" },
  params = { { "y", "f32[n]" }, { "z", "f32[n]", access = "out" } },
  body = "z(i) = y(n - 1 - i) + 1.0f;" }

kernel "trap_at" { pattern = "for", range = { "n" },
  params = { { "y", "f32[n]" }, { "z", "f32[n]", access = "out" }, { "at", "i64" } },
  body = "if (i == at) __trap(); z(i) = y(n - 1 - i);" }

-- spins on a host flag that is never set
kernel "spin_at" { pattern = "for", range = { "n" },
  params = { { "y", "f32[n]" }, { "z", "f32[n]", access = "out" },
             { "flag", "i32[1]", space = "mapped" }, { "at", "i64" } },
  body = [[
    if (i == at) while (*(volatile const int *)&flag(0) == 0) { }
    z(i) = y(n - 1 - i);
  ]] }

frame "ok" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" } },
  stages = { { "twice" }, { "mirror" } } }
frame "trap" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" }, { "at", "i64" } },
  stages = { { "twice" }, { "trap_at" } } }
frame "hang" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" },
                          { "flag", "i32[1]", space = "mapped" }, { "at", "i64" } },
  stages = { { "twice" }, { "spin_at" } } }

-- declares halo 1 on y but reads y(i - 2) at one element: the view's
-- check traps there (a neighbour wait before the stage would not cover
-- the read), so the frame fails instead of returning a wrong z
kernel "liar" { pattern = "for", range = { "n" },
  params = { { "y", "f32[n]", halo = 1 }, { "z", "f32[n]", access = "out" }, { "at", "i64" } },
  body = "z(i) = y(i == at ? i - 2 : i);" }
frame "lie" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" }, { "at", "i64" } },
  stages = { { "twice" }, { "liar" } } }

-- hangs where y = 777 (the host puts x = 388.5 there), touching y and z
-- only at the own index; the next stage reads z within halo 1, so the
-- hung block's neighbours sit in their neighbour wait - or, with the halo
-- exchange (n = 1000 on 8 blocks fits its slots), in the poll of the
-- tagged word the hung block never publishes
kernel "spin_own" { pattern = "for", range = { "n" },
  params = { { "y", "f32[n]" }, { "z", "f32[n]", access = "out" },
             { "flag", "i32[1]", space = "mapped" } },
  body = "if (y(i) == 777.0f) while (*(volatile const int *)flag == 0) { } z(i) = y(i);" }
kernel "near" { pattern = "for", range = { "n" },
  params = { { "z", "f32[n]", halo = 1 }, { "w", "f32[n]", access = "out" } },
  body = "w(i) = z(i + 1 < n ? i + 1 : i);" }
frame "nhang" { params = { { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" }, { "w", "f32[n]" },
                           { "flag", "i32[1]", space = "mapped" } },
  stages = { { "twice" }, { "spin_own" }, { "near" } } }

local cmds = { "ok", "trap", "hang", "lie", "nhang" }
persistent "many" { layout = "many_blocks", block = 256, blocks = 8, commands = cmds }
persistent "one" { layout = "one_block", block = 256, commands = cmds }
