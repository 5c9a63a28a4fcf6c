module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 48, 24, 72 },
  params = {
    { "A", "f32[48][72]" },
    { "B", "f32[24][72]" },
    { "C", "f32[48][24]", access = "out" } },
  a = "A", b = "B", c = "C" }
