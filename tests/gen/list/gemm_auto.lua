-- tile = "auto": the plan's tile in the kernel itself, a kernel per other
-- candidate tile (f32 256 x 256 x 128: four tiles; f16: two), each a
-- command of every persistent kernel that has the gemm, right after it;
-- a frame with such a stage gets a variant frame per variant (the stage
-- running it), named after the frame (two auto stages: _s<stage> too).
module { name = "gemm_auto", targets = { "cuda" } }
kernel "mm" { pattern = "gemm", size = { 256, 256, 128 }, tile = "auto",
  params = { { "a", "f32[256][128]" }, { "b", "f32[128][256]" }, { "c", "f32[256][256]", access = "out" } },
  a = "a", b = "b", c = "c" }
kernel "hm" { pattern = "gemm", size = { 256, 256, 128 }, tile = "auto",
  params = { { "a", "f16[256][128]" }, { "b", "f16[128][256]" }, { "c", "f32[256][256]", access = "out" } },
  a = "a", b = "b", c = "c" }
frame "fr" {
  params = { { "a", "f32[256][128]" }, { "b", "f32[128][256]" }, { "c", "f32[256][256]" } },
  stages = { { "mm" } },
}
kernel "scale" { pattern = "for", range = { 256, 256 },
  params = { { "c", "f32[256][256]", access = "inout" } }, body = "c(i, j) *= 0.5f;" }
frame "fr2" {
  params = { { "a", "f32[256][128]" }, { "b", "f32[128][256]" }, { "c", "f32[256][256]" },
    { "ha", "f16[256][128]" }, { "hb", "f16[128][256]" }, { "hc", "f32[256][256]" } },
  stages = { { "mm" }, { "scale" }, { "hm", a = "ha", b = "hb", c = "hc" } },
}
persistent "p" { layout = "many_blocks", block = 128, commands = { "mm", "hm", "fr" } }
persistent "q" { layout = "many_blocks", block = 128, commands = { "fr2" } }
-- a frame on two GPUs gets no variants (the tuner leaves team kernels out)
kernel "sm" { pattern = "gemm", size = { 128, 128, 64 }, tile = "auto",
  params = { { "a", "f32[128][64]" }, { "b", "f32[64][128]" }, { "c", "f32[128][128]", access = "out" } },
  a = "a", b = "b", c = "c" }
frame "two" { gpus = 2,
  params = { { "a", "f32[128][64]" }, { "b", "f32[64][128]" }, { "c", "f32[128][128]" } },
  stages = { { "sm" }, { exchange = "allreduce", view = "c", op = "sum" } } }
persistent "r" { layout = "many_blocks", block = 128, commands = { "two" } }
