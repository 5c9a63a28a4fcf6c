-- nothing declared
local x = 1
