local info = debug.getinfo(1)
