-- Frames whose result rides in the acknowledgement (`result = "e"`),
-- checked by test_results_gpu.c: f32, f64, i32 and u64 results (4 and 8
-- bytes: the 8-byte ones split over two tagged words), with the ack
-- relaxed (the result is all the frame publishes: e and y in device
-- memory) and with release (r32m writes y to host-mapped memory, which
-- the host reads too).  Every value is exact, so the CPU reference
-- compares with ==.
module { name = "results_gpu", targets = { "cuda" } }

kernel "scale" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = gain * x(i);" }
kernel "scale_mapped" { pattern = "for", range = { "n" },
  params = { { "gain", "f32" }, { "x", "f32[n]" },
             { "y", "f32[n]", access = "out", space = "mapped" } },
  body = "y(i) = gain * x(i);" }
kernel "sum32" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }
-- f64: every term a multiple of 2^40, so the high word of the result is
-- never zero and a torn or stale half shows
kernel "sum64" { pattern = "reduce", range = { "n" }, type = "f64",
  params = { { "v", "f32[n]" }, { "e", "f64[1]", access = "out" } },
  value = "(double)v(i) * 1099511627776.0", into = "e" }
kernel "isum" { pattern = "reduce", range = { "n" },
  params = { { "k", "i32[n]" }, { "e", "i32[1]", access = "out" } }, value = "k(i)", into = "e" }
kernel "usum" { pattern = "reduce", range = { "n" },
  params = { { "k", "i32[n]" }, { "e", "u64[1]", access = "out" } },
  value = "(unsigned long long)(k(i) + 64) * 4294967311ull", into = "e" }

-- two stages write e: the reduction, then dbl doubles it - the ack must
-- carry the doubled value, not the reduction's (its note; gen/frame_schedule.c)
kernel "dbl" { pattern = "for", range = { 1 },
  params = { { "e", "f32[1]", access = "inout" } }, body = "e(i) = 2.0f * e(i);" }

frame "r32" { params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "scale" }, { "sum32", v = "y" } }, result = "e" }
frame "r32m" { params = { { "gain", "f32" }, { "x", "f32[n]" },
                          { "y", "f32[n]", space = "mapped" }, { "e", "f32[1]" } },
  stages = { { "scale_mapped" }, { "sum32", v = "y" } }, result = "e" }
frame "r64" { params = { { "x", "f32[n]" }, { "e", "f64[1]" } },
  stages = { { "sum64", v = "x" } }, result = "e" }
frame "ri32" { params = { { "k", "i32[n]" }, { "e", "i32[1]" } },
  stages = { { "isum" } }, result = "e" }
frame "ru64" { params = { { "k", "i32[n]" }, { "e", "u64[1]" } },
  stages = { { "usum" } }, result = "e" }
frame "r32d" { params = { { "x", "f32[n]" }, { "e", "f32[1]" } },
  stages = { { "sum32", v = "x" }, { "dbl" } }, result = "e" }
-- no result: the ack keeps its system-scope release, so a mapped array
-- may stand for y, declared in device memory (test_results_gpu.c)
frame "w32" { params = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" } },
  stages = { { "scale" } } }

for _, layout in ipairs { "one_block", "many_blocks", "hybrid" } do
  persistent ("res_" .. layout) {
    layout = layout, buffering = { ring = 4 },
    commands = { "r32", "r32m", "r64", "ri32", "ru64", "r32d", "w32" },
  }
end
