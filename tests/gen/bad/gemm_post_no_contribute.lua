module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 20, 30, 12 },
  params = { { "A", "f32[20][12]" }, { "B", "f32[12][30]" }, { "C", "f32[20][30]", access = "out" },
    { "st", "f32[1]", access = "out" } },
  a = "A", b = "B", c = "C", into = "st", op = "max",
  post = "re = re > 0 ? re : 0;" }
