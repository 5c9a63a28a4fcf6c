module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 8, 8, 8 },
  params = { { "A", "f64[8][8]" }, { "B", "f64[8][8]" },
    { "C", "f64[8][8]", access = "inout" }, { "s", "f32" } },
  a = "A", b = "B", c = "C", alpha = "s" }
