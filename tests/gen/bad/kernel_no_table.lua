kernel "a"
