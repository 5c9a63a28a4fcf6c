module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 8, 8, 8 },
  params = { { "A", "f32[n][8][8]" }, { "B", "f32[n][8][8]" },
    { "C", "f32[n][8][8]", access = "out" } },
  a = "A", b = "B", c = "C", tile = 32 }
