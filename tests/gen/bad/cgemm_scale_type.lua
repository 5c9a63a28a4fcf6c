module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", type = "complex", size = { 16, 24, 8 },
  params = { { "A", "f32[16][8][2]" }, { "B", "f32[8][24][2]" },
    { "C", "f32[16][24][2]", access = "out" }, { "s", "f64" } },
  a = "A", b = "B", c = "C",
  alpha = { 1, "s" } }
