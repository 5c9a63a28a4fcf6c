-- A persistent kernel with the most commands allowed (16): its generated
-- source must stay small (the largest-argument constant names each
-- command once; tests/gen/cli.cmake checks the size) and compile
-- (tests/emit: check_many_commands), with the largest argument struct in
-- the middle of the list (k9: three more f64), which the kernel's
-- static_assert compares with the plan's slot size.
local cmds = {}
for c = 1, 16 do
  local name = "k" .. c
  local params = { { "x", "f32[n]", access = "inout" }, { "a", c % 2 == 0 and "f64" or "f32" } }
  if c == 9 then
    for _, extra in ipairs { "b", "c", "d" } do params[#params + 1] = { extra, "f64" } end
  end
  kernel (name) { pattern = "for", range = { "n" }, params = params, body = "x(i) += a;" }
  cmds[c] = name
end
persistent "many" { layout = "one_block", commands = cmds }
