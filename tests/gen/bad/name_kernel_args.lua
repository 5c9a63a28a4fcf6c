-- "args_smooth" makes gg_args_smooth, the name of the argument struct of
-- the kernel "smooth" (one of the kernel source's file-scope names,
-- gen/names.h; the rest of a kernel's names live in its namespace)
kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i);" }
kernel "args_smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i);" }
