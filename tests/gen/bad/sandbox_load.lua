local f = load("return 1")
