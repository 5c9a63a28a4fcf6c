module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 24, 40, 96 }, type = "complex", op_a = "c",
  params = { { "W", "f32[96][24][2]" }, { "X", "f32[96][40][2]" }, { "Y", "f32[24][40][2]", access = "out" },
    { "best", "f32[1]", access = "out" } },
  a = "W", b = "X", c = "Y", post = "contribute(re * re + im * im);", op = "max", into = "best",
  split_k = 2 }
