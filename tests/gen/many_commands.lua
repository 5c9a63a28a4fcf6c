-- A persistent kernel with the most commands allowed (16): its generated
-- source must stay small (the largest-argument constant names each
-- command once) and compile (tests/gen/cli.cmake).
local cmds = {}
for c = 1, 16 do
  local name = "k" .. c
  kernel (name) { pattern = "for", range = { "n" },
    params = { { "x", "f32[n]", access = "inout" }, { "a", c % 2 == 0 and "f64" or "f32" } },
    body = "x(i) += a;" }
  cmds[c] = name
end
persistent "many" { layout = "one_block", commands = cmds }
