module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", type = "complex", size = { 16, 16, 16 },
  params = { { "A", "f16[16][16][2]" }, { "B", "f16[16][16][2]" },
    { "C", "f32[16][16][2]", access = "out" } },
  a = "A", b = "B", c = "C" }
