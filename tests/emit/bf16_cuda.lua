-- bf16 exists only on the cuda target (hiprtc 5.2 has no bf16 type).
module { name = "bf16_cuda", targets = { "cuda" } }
kernel "bsquare" {
  pattern = "for",
  range   = { "n" },
  params  = {
    { "x", "bf16[n]", access = "inout" },
    { "acc", "bf16[1]", access = "atomic" },
  },
  body = "x(i) = x(i) * x(i); gg_atomic_add(&acc(0), x(i));",
}
