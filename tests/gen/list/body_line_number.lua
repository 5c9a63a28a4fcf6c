-- A #line whose number NVRTC refuses (it reads a line number up to
-- 2147483647): refused at the body's line, before any compiler runs.
kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "y", "f32[n]", access = "inout" } },
  body = [[
y(i) = 1;
#line 4294967296
y(i) += 1;
]],
}
