-- f16 on both targets (HIP: _Float16), with CAS-emulated f16 atomics;
-- an f16 scalar first, so the args struct has a 2-byte field then padding.
module { name = "half_types", targets = { "cuda", "hip" } }
kernel "hscale" {
  pattern = "for",
  range   = { "n" },
  params  = {
    { "a", "f16" },
    { "x", "f16[n]", access = "inout" },
    { "acc", "f16[1]", access = "atomic" },
    { "c", "i32" },
  },
  body = "x(i) = x(i) * a; gg_atomic_add(&acc(0), x(i)); gg_atomic_max(&acc(0), x(i)); (void)c;",
}
