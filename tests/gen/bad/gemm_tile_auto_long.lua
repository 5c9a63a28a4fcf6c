module { name = "m", targets = { "cuda" } }
kernel "a_rather_long_gemm_kernel_name_that_fills_most_of_the_limit_x" {
  pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
