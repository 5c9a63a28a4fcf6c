local t = {}
error(t)
