-- Persistent kernels past gpugen's 32 MiB source limit: 16 small commands
-- in each of 4000 persistent kernels.  `gpugen emit` must refuse it at the
-- persistent kernel where the limit is passed, as it does for kernels.
local cmds = {}
for c = 1, 16 do
  kernel ("inc" .. c) { pattern = "for", range = { "n" },
    params = { { "x", "f32[n]", access = "inout" } }, body = "x(i) += 1.0f;" }
  cmds[c] = "inc" .. c
end
for k = 1, 4000 do
  persistent ("p" .. k) { layout = "one_block", commands = cmds }
end
