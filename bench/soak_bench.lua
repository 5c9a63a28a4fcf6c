-- soak_bench.lua - the floor of bench/soak_bench.c: the bare handshake
-- loop, a persistent kernel whose one command does nothing, in the shape
-- of examples/app's frame_one_block_1024 (one block of 1024 threads), so
-- the two differ only by the frame's work.
module { name = "soak_bench", targets = { "cuda", "hip" } }

kernel "tick" { pattern = "for", range = { 1 }, body = "" }

persistent "bare" { layout = "one_block", block = 1024, commands = { "tick" } }
