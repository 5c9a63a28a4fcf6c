-- A body with a compile error on line 9: `gpugen check` must name
-- tests/emit/bad_body.lua:9 for NVRTC and hiprtc alike.
kernel "bad_body" {
  pattern = "for",
  range   = { "n" },
  params  = { { "y", "f32[n]", access = "out" } },
  body = [[
    float t = 1.0f;
    y(i) = t + undeclared_name;
  ]],
}
