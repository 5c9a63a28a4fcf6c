local s = string.dump(function() end)
