-- A body whose last statement lacks its ';' (line 8): NVRTC reports the
-- missing ';' at the next token, so gpugen puts an empty block numbered
-- as the body's last line there; both compilers must name line 8.
kernel "bad_semicolon" {
  pattern = "for",
  range   = { "n" },
  params  = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body    = "y(i) = 2.0f * x(i)",
}
