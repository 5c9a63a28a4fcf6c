-- complex gemm: c32 (f32 pairs) and c64 (f64 pairs).  The plan counts an
-- element as its 8 or 16 bytes (tiles, K step, 16-byte loads); op "c"
-- conjugates through cuBLASDx's load op; alpha and beta are { re, im }.
module { name = "m", targets = { "cuda" } }
-- a batch of beamformers y = W^H x: W stored K x M, [n][rows][2 x cols]
kernel "beam" { pattern = "gemm", type = "complex", size = { 100, 36, 52 }, op_a = "c",
  params = { { "W", "f32[n][52][200]" }, { "X", "f32[n][52][72]" },
    { "Y", "f32[n][100][72]", access = "out" }, { "gain", "f32" } },
  a = "W", b = "X", c = "Y", alpha = { "gain", 0.5 } }
-- one c64 matrix, B transposed and conjugated, a written tile (K in 4 steps)
kernel "z" { pattern = "gemm", type = "complex", size = { 37, 53, 29 }, op_b = "c",
  params = { { "A", "f64[37][29][2]" }, { "B", "f64[53][29][2]" },
    { "C", "f64[37][53][2]", access = "inout" } },
  a = "A", b = "B", c = "C", beta = { 0, -1 }, tile = { 16, 32, 8 } }
-- the beams' detect in post statements: the largest |Y|^2 over the batch
kernel "detect" { pattern = "gemm", type = "complex", size = { 100, 36, 52 }, op_a = "c",
  params = { { "W", "f32[n][52][200]" }, { "X", "f32[n][52][72]" },
    { "Y", "f32[n][100][72]", access = "out" }, { "pk", "f32[1]", access = "out" } },
  a = "W", b = "X", c = "Y", post = "contribute(re * re + im * im);", op = "max", into = "pk" }
