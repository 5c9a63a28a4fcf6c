kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#define CAT(a, b) a ## b
    CAT(_Pr, agma)("GCC dependency \"/etc/hostname\"")
    y(i) = x(i);
#undef CAT]] }
