module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 16, 16, 16 }, math = "tf32",
  params = { { "A", "f64[16][16]" }, { "B", "f64[16][16]" }, { "C", "f64[16][16]", access = "out" } },
  a = "A", b = "B", c = "C" }
