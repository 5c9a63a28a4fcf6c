kernel "persist_p" { pattern = "for", range = { 4 }, body = "" }
kernel "k" { pattern = "for", range = { 4 }, body = "" }
persistent "p" { commands = { "k" } }
