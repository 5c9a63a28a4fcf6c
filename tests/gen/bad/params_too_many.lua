kernel "k" { pattern = "for", range = { "n" },
  params = (function() local p = {} for j = 1, 1001 do p[j] = { "a" .. j, "f32" } end return p end)(),
  body = "" }
