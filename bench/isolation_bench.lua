-- isolation_bench.lua: the frame loop that isolation_bench measures under
-- a competing load, and that load.
module { name = "isolation_bench", targets = { "cuda" } }

-- the loop's frame: one step of a filter over 32K samples
kernel "step" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = 0.5f * y(i) + x(i);" }

-- the competing load: every thread holds its SM for `ns` nanoseconds
-- (the GPU's global timer), then writes one value
kernel "burn" { pattern = "for", range = { "n" },
  params = { { "z", "f32[n]", access = "out" }, { "ns", "i64" } },
  body = [[
    unsigned long long t0 = gg_clock_ns();
    while (gg_clock_ns() - t0 < (unsigned long long)ns) { }
    z(i) = (float)(i & 7);
  ]] }

-- 16 blocks of 256: fits a 16-SM partition (one block per SM)
persistent "loop" { layout = "many_blocks", block = 256, blocks = 16, commands = { "step" } }
