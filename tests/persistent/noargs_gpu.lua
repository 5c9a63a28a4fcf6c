-- noargs_gpu.lua: a persistent kernel whose only command takes no
-- arguments (an empty argument struct: 0 bytes in the plan, 1 in C++).
-- The host posts one tagged word per frame; the kernel must poll one.
module { name = "noargs_gpu", targets = { "cuda", "hip" } }

kernel "tick" { pattern = "for", range = { 1 }, body = "" }

persistent "one" { layout = "one_block", block = 32, commands = { "tick" } }
persistent "many" { layout = "many_blocks", block = 64, blocks = 4, commands = { "tick" } }
