module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 20, 30, 12 },
  params = { { "A", "f32[20][12]" }, { "B", "f32[12][30]" }, { "C", "f32[20][30]", access = "out" },
    { "j", "f32" } },
  a = "A", b = "B", c = "C", post = "re *= j;" }
