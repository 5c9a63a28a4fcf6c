module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", type = "complex", size = { 37, 53, 29 },
  params = { { "A", "f32[37][29][2]" }, { "B", "f32[29][53][2]" },
    { "C", "f32[37][53]", access = "out" } },
  a = "A", b = "B", c = "C" }
