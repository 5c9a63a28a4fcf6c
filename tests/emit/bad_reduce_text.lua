-- Compile errors in a combine (line 8), a second value (line 14) and an
-- identity (line 20): both compilers must name those lines, not the
-- generated source.
kernel "comb" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "o", "f32[1]", access = "out" } },
  value = "x(i)",
  identity = "0.0f",
  combine = "fmaxf(a, b) + undefined_c",
  into = "o" }
kernel "vals" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "o", "f32[2]", access = "out" } },
  into = "o",
  value = { "x(i)",
            "x(i) + undefined_v" } }
kernel "ident" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "o", "f32[1]", access = "out" } },
  value = "x(i)",
  combine = "a + b",
  into = "o",
  identity = "undefined_id" }
