local s = string.rep("a", 60000)
local at = s:find(".-.-.-.-b")
