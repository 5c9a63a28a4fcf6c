module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", type = "complex", size = { 16, 16, 16 },
  params = { { "A", "f64[16][16][2]" }, { "B", "f64[16][16][2]" },
    { "C", "f64[16][16][2]", access = "out" } },
  a = "A", b = "B", c = "C",
  alpha = { 1 } }
