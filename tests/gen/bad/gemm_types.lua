module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 16, 16, 16 },
  params = { { "A", "f16[16][16]" }, { "B", "f16[16][16]" },
    { "C", "f16[16][16]", access = "out" } },
  a = "A", b = "B", c = "C" }
