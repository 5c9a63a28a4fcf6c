module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
-- 56 characters: with "_tile16x32x128" its variants pass 64
frame "a_frame_name_that_is_long_enough_to_pass_the_name_limit"
  { params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]" } },
  stages = { { "mm" } } }
