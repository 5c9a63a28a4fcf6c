module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 256, 256, 256 },
  params = { { "A", "f32[256][256]" }, { "B", "f32[256][256]" }, { "C", "f32[256][256]", access = "out" } },
  tile = { 256, 256, 256 },
  a = "A", b = "B", c = "C" }
