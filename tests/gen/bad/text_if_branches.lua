kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#ifdef __HIP_DEVICE_COMPILE__
    if (x(i) > 0) {
#else
    {
    {
#endif
    y(i) = x(i); }]] }
