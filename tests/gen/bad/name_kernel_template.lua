kernel "grid_hw" { pattern = "for", range = { 4 }, body = "" }
