-- block = "auto" on an fft: the plan's thread count in the kernel itself,
-- a kernel per other count of whole warps cuFFTDx has for the size
-- ("<name>_threads<t>"); a frame whose fft stages are auto gets a variant
-- per count its other stages allow (all auto ffts on that count), and a
-- persistent kernel running them a variant on each count
-- ("<persistent>_threads<t>") holding the variants: a persistent kernel's
-- block is its ffts' threads.
module { name = "fft_auto", targets = { "cuda" } }
local c = "f32[nb][1024][2]"
kernel "fwd" { pattern = "fft", size = 1024, block = "auto",
  params = { { "x", c, access = "inout" } }, input = "x", output = "x" }
kernel "inv" { pattern = "fft", size = 1024, block = "auto", direction = "inverse",
  params = { { "x", c, access = "inout" } }, input = "x", output = "x" }
-- an elementwise stage runs on any block: the frame varies with the ffts
kernel "gain" { pattern = "for", range = { "nb", 1024, 2 },
  params = { { "x", c, access = "inout" } }, body = "x(i, j, k) *= 0.5f;" }
frame "round" {
  params = { { "x", c } },
  stages = { { "fwd" }, { "gain" }, { "inv" } },
}
-- a team of 256 threads fixes the block: the frame has no variant (256 is
-- the ffts' own count), nor has q
kernel "tgain" { pattern = "team", league = "nb", team_size = 256,
  params = { { "x", c, access = "inout" } },
  body = "for (int j = team_rank; j < 1024; j += team_size) { x(league_rank, j, 0) *= 2.0f; }" }
frame "fixed" {
  params = { { "x", c } },
  stages = { { "fwd" }, { "tgain" }, { "inv" } },
}
persistent "p" { layout = "many_blocks", blocks = 16, commands = { "fwd", "round" } }
persistent "one" { layout = "one_block", commands = { "inv" } }
persistent "q" { layout = "many_blocks", commands = { "fixed" } }
-- a stage with a larger block of its own (a for: any count runs it) takes
-- nothing from the ffts' counts: wide gets a variant on 512 too
kernel "gain512" { pattern = "for", range = { "nb", 1024, 2 }, block = 512,
  params = { { "x", c, access = "inout" } }, body = "x(i, j, k) *= 0.25f;" }
frame "wide" {
  params = { { "x", c } },
  stages = { { "fwd" }, { "gain512" } },
}
persistent "w" { layout = "many_blocks", commands = { "wide" } }
