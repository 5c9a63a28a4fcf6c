setmetatable({}, { __gc = function() end })
