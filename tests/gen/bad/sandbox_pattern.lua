local s = string.rep("a", 60000)
local body = s:gsub("a", "b")
