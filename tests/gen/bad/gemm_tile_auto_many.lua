module { name = "m", targets = { "cuda" } }
kernel "g1" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "g2" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "g3" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "g4" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "g5" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "g6" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
persistent "p" { layout = "one_block", block = 128,
  commands = { "g1", "g2", "g3", "g4", "g5", "g6" } }
