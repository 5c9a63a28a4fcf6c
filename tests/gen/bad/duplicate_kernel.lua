kernel "a" { pattern = "for", range = { 4 }, body = "" }
kernel "a" { pattern = "for", range = { 4 }, body = "" }
