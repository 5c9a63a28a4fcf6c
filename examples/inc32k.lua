-- inc32k: add one to each of 32768 integers, in place (pattern "for").
kernel "inc32k" {
  pattern = "for",
  range   = { 32768 },
  params  = { { "v", "i32[32768]", access = "inout" } },
  body    = "v(i) += 1;",
  block   = 256,                  -- a knob: 256 threads per block
}
