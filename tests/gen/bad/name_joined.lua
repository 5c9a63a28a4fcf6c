module { name = "m" }
kernel "a" { pattern = "for", range = { 4 }, params = { { "b_c", "f32" } }, body = "" }
kernel "a_b" { pattern = "for", range = { 4 }, params = { { "c", "f32" } }, body = "" }
