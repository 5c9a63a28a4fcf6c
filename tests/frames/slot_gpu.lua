-- Frames whose input travels in the mailbox slot (space = "slot"),
-- checked by test_slot_gpu.c.  The host's array is copied into the slot's
-- tagged words by gg_session_start, and the kernel reads its copy in
-- shared memory: a slot of more than 32 words is polled by the whole
-- block (templates/cuda/persistent.cuh, gg_p_take_block).  Kinds: a
-- scale fused into its sum (result in a relaxed ack), the same with y in
-- mapped memory (release ack), an i32 slot of up to 2500 elements (the
-- largest slot, 1257 words), and a 3-point stencil that reads the slot's
-- neighbours across chunk edges.  Every value is an integer, so the CPU
-- reference compares with ==.
module { name = "slot_gpu", targets = { "cuda", "hip" } }

kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
kernel "scale_mapped" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" },
             { "y", "f32[n]", access = "out", space = "mapped" } },
  body = "y(i) = gain * x(i);" }
kernel "sum32" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
kernel "isum" { pattern = "reduce", range = { "n" },
  params = { { "k", "i32[n]" }, { "e", "i32[1]", access = "out" } }, value = "k(i)", into = "e" }
kernel "stencil" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = (i > 0 ? x(i - 1) : 0.0f) + 2.0f * x(i) + (i + 1 < n ? x(i + 1) : 0.0f);" }

frame "sl32" { params = { { "gain", "f32" }, { "x", "f32[n]", space = "slot", max = 1000 },
                          { "y", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "scale" }, { "sum32", v = "y" } }, result = "e" }
frame "slm" { params = { { "gain", "f32" }, { "x", "f32[n]", space = "slot", max = 1000 },
                         { "y", "f32[n]", space = "mapped" }, { "e", "f32[1]" } },
  stages = { { "scale_mapped" }, { "sum32", v = "y" } }, result = "e" }
frame "slk" { params = { { "k", "i32[n]", space = "slot", max = 2500 }, { "e", "i32[1]" } },
  stages = { { "isum" } }, result = "e" }
frame "slh" { params = { { "x", "f32[n]", space = "slot", max = 1000 }, { "y", "f32[n]" },
                         { "e", "f32[1]" } },
  stages = { { "stencil" }, { "sum32", v = "y" } }, result = "e" }

persistent "slot_one_block" { layout = "one_block", commands = { "sl32", "slm", "slk", "slh" } }
persistent "slot_one_block_1024" { layout = "one_block", block = 1024, buffering = "double",
  commands = { "sl32", "slm", "slk", "slh" } }
for _, layout in ipairs { "many_blocks", "thread_groups", "hybrid" } do
  persistent ("slot_" .. layout) {
    layout = layout, buffering = { ring = 4 },
    commands = { "sl32", "slm", "slk", "slh" },
  }
end
