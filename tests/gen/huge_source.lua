-- A file whose generated source would pass gpugen's 32 MiB limit (40
-- kernels of 1000 views, each view's macro and the body in every
-- instantiation): `gpugen emit` must refuse it at the kernel where the
-- limit is passed, and stay quick on the way (the body scans once took
-- the cube of the size: a minute for this file).
local p, body = {}, {}
for j = 1, 1000 do
  p[j] = { "p" .. j, "f32[n" .. j .. "]", access = "inout" }
  body[j] = "p" .. j .. "(i) += 1;"
end
body = table.concat(body, "\n")
for k = 1, 40 do
  kernel ("k" .. k) { pattern = "for", range = { "n1" }, params = p, body = body }
end
