local ok = pcall(string.rep, "x", 1 << 30)
kernel "a" { pattern = "for", range = { 4 }, params = { { "x", "f32[4]" } }, body = "" }
