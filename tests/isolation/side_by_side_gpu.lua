-- side_by_side_gpu.lua: two sessions on the two sides of an SM split,
-- run at the same time (test_side_by_side_gpu.c).  Every frame's a and b
-- are new, so a frame that ran with another frame's arguments shows.
module { name = "side_by_side_gpu", targets = { "cuda" } }

kernel "axpb" { pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "b", "f32" }, { "x", "f32[n]" },
             { "y", "f32[n]", access = "out" } },
  body = "y(i) = a * x(i) + b;" }

-- every block that co-resides on the context's SMs, double-buffered
persistent "many" { layout = "many_blocks", block = 256, commands = { "axpb" },
                    buffering = "double" }
