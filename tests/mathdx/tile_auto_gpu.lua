-- tile = "auto" (test_tile_auto_gpu.c): an f32 gemm of 200 x 136 x 72
-- (no side a multiple of its tiles) keeps the plan's tile (16 x 16) and
-- gets a kernel for each other candidate tile of the same block (16 x 32,
-- 32 x 32), each also a command of both persistent kernels; frame fr
-- (mm, then C halved) gets a variant frame per variant, fr_tile..., each
-- a command of the persistent kernel that has fr.
module { name = "tile_auto_gpu", targets = { "cuda" } }

kernel "mm" { pattern = "gemm", size = { 200, 136, 72 }, tile = "auto",
  params = { { "A", "f32[200][72]" }, { "B", "f32[72][136]" }, { "C", "f32[200][136]", access = "out" } },
  a = "A", b = "B", c = "C" }

kernel "halve" { pattern = "for", range = { 200, 136 },
  params = { { "C", "f32[200][136]", access = "inout" } }, body = "C(i, j) *= 0.5f;" }
frame "fr" {
  params = { { "A", "f32[200][72]" }, { "B", "f32[72][136]" }, { "C", "f32[200][136]", space = "mapped" } },
  stages = { { "mm" }, { "halve" } },
}

persistent "one" { layout = "one_block", block = 128, commands = { "mm" } }
persistent "many" { layout = "many_blocks", block = 128, commands = { "mm", "fr" } }
