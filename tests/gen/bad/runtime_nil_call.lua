-- a typo in a helper name
local n = 4
foo(n)
