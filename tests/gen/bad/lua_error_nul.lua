-- a Lua error whose message holds a NUL byte: shown, not cut there
error("before\0after")
