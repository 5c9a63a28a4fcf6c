-- the plan's tiles: 256^3 f32 (one block could not hold it) is 128 tiles
-- of 16 x 32 with K in one step of 256; 128^3 64 tiles of 16 x 16, one K
-- step; 100 x 36 x 52 16 x 16 tiles with edges; a written tile with a
-- partial K step
module { name = "m", targets = { "cuda" } }
kernel "big" { pattern = "gemm", size = { 256, 256, 256 },
  params = { { "A", "f32[256][256]" }, { "B", "f32[256][256]" }, { "C", "f32[256][256]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "s128" { pattern = "gemm", size = { 128, 128, 128 },
  params = { { "A", "f32[n][128][128]" }, { "B", "f32[n][128][128]" },
    { "C", "f32[n][128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "h100" { pattern = "gemm", size = { 100, 36, 52 }, op_a = "t",
  params = { { "A", "f16[n][52][100]" }, { "B", "f16[n][52][36]" },
    { "C", "f32[n][100][36]", access = "out" } },
  a = "A", b = "B", c = "C", beta = -0.0 }
kernel "mine" { pattern = "gemm", size = { 100, 36, 52 },
  params = { { "A", "f64[n][100][52]" }, { "B", "f64[n][52][36]" },
    { "C", "f64[n][100][36]", access = "inout" } },
  a = "A", b = "B", c = "C", beta = 1, tile = { 32, 16, 16 } }
-- math = "tf32": f32 views on the tensor cores as TF32, its error and tile
kernel "tf" { pattern = "gemm", size = { 128, 128, 128 }, math = "tf32",
  params = { { "A", "f32[128][128]" }, { "B", "f32[128][128]" }, { "C", "f32[128][128]", access = "out" } },
  a = "A", b = "B", c = "C" }
