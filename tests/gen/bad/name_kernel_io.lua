-- "io_smooth" makes gg_io_smooth, the name of the halo exchange struct of
-- the kernel "smooth" (templates/common/for.cuh)
kernel "smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", halo = 1 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);" }
kernel "io_smooth" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } }, body = "y(i) = x(i);" }
