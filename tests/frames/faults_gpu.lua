-- faults_gpu.lua: frames whose second stage traps or hangs on one element
-- (test_frame_faults.c), and a frame that runs (checked against the CPU
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

persistent "many" { layout = "many_blocks", block = 256, blocks = 8, commands = { "ok", "trap", "hang" } }
persistent "one" { layout = "one_block", block = 256, commands = { "ok", "trap", "hang" } }
