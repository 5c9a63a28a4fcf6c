module { name = "m", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 128, 128, 128 }, tile = "auto",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
frame "fr" { params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]" } },
  stages = { { "mm" } } }
-- the name of fr's variant frame with mm's variant of 16 x 32 tiles
kernel "fr_tile16x32x128" { pattern = "for", range = { 4 }, body = "" }
