module { name = "session" }
kernel "a" { pattern = "for", range = { "n" }, params = { { "y", "f32[n]", access = "out" } }, body = "y(i) = 1;" }
-- a frame is named as a frame, not a kernel, in the message
frame "session" { params = { { "y", "f32[n]" } }, stages = { { "a" } } }
persistent "p" { commands = { "session" } }
