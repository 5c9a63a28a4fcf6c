module { name = "load" }
kernel "k" { pattern = "for", range = { 4 }, body = "" }
