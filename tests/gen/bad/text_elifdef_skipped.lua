-- clang ends the #if 0 group at #elifndef and compiles what follows;
-- NVRTC does not know the directive: the check refuses it
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#if 0
#elifndef NOTHING
#include "/etc/passwd"
#endif
    y(i) = x(i);]] }
