kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  body = [[
#if 0
1\u00e9'x' /*
#endif
#include "/etc/hostname"
#if 0
*/
#endif
x(i) = 1;
]] }
