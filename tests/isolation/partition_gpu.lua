-- partition_gpu.lua: a kernel that records which SM ran each element
-- (test_partition_gpu.c checks that a context on an SM partition keeps
-- its classic launches and its persistent session on its own SMs).
module { name = "partition_gpu", targets = { "cuda" } }

-- y = 2x + 1 checks that the work was done; sm(i) is the SM (%smid) of
-- the thread that did element i.
kernel "where" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" },
             { "sm", "i32[n]", access = "out" } },
  body = [[
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    y(i) = 2.0f * x(i) + 1.0f;
    sm(i) = (int)s;
  ]] }

-- every block of the partition, as many as co-reside there (blocks left
-- to the occupancy API and the context's SM count)
persistent "whole" { layout = "many_blocks", block = 256, commands = { "where" } }
