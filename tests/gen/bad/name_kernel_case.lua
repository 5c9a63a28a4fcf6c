kernel "k" { pattern = "for", range = { 4 }, body = "" }
kernel "K" { pattern = "for", range = { 4 }, body = "" }
