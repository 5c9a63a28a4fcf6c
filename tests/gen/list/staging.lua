-- Which for views the plan stages (gen/plan.c, plan_staging; `gpugen
-- explain` says): views read at the own index only, over the whole range,
-- in at most 16 registers a thread for at least two steps.
module { name = "staging", targets = { "cuda", "hip" } }

-- staged: x (inout) and y (in); z is out (its stores do not wait)
kernel "both" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" }, { "y", "f32[n]" }, { "z", "f32[n]", access = "out" } },
  body = "x(i) += y(i); z(i) = x(i);" }
-- f64 x vector 4: 8 registers an index, so two steps
kernel "wide" { pattern = "for", range = { "n" }, vector = 4,
  params = { { "x", "f64[n]", access = "inout" } }, body = "x(i) *= 2.0;" }
-- x not staged: shorter than the range (a load of an index the body
-- skips would be out of bounds); m is
kernel "shorter" { pattern = "for", range = { "n" },
  params = { { "m", "f32[n]" }, { "x", "f32[k]", access = "inout" } },
  body = "if (m(i) > 0.0f) x(i) += 1.0f;" }
-- not staged: a neighbour's index
kernel "shifted" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = i > 0 ? x(i - 1) : 0.0f;" }
-- not staged: only an out view
kernel "fill" { pattern = "for", range = { "n" },
  params = { { "y", "f32[n]", access = "out" } }, body = "y(i) = 1.0f;" }
-- not staged: f64 x vector 8 leaves room for one step only
kernel "widest" { pattern = "for", range = { "n" }, vector = 8,
  params = { { "x", "f64[n]", access = "inout" } }, body = "x(i) *= 2.0;" }
-- not staged: x is only assigned (a store does not wait), and w is never named
kernel "assigned" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" }, { "w", "f32[n]", access = "inout" } },
  body = "x(i) = 2.0f;" }
-- staged: a comparison reads (==), and so does a compound assignment
kernel "compared" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" }, { "y", "f32[n]", access = "inout" } },
  body = "if (x(i) == 0.0f) x(i) = 1.0f; y(i) *= 2.0f;" }
-- staged: 16-bit floats (one register each), compiled by NVRTC and hiprtc
kernel "halves" { pattern = "for", range = { "n" },
  params = { { "x", "f16[n]", access = "inout" }, { "y", "f16[n]" } },
  body = "x(i) = x(i) + y(i);" }
-- not staged: a directive (a macro or pragma could hide a use from the scan;
-- _Pragma, which could pop the view's register macro, is refused outright)
kernel "pragma" { pattern = "for", range = { "n" },
  params = { { "x", "i32[n]", access = "inout" } },
  body = [[
#pragma unroll
    for (int r = 0; r < 2; ++r) x(i) += 1;]] }
-- not staged: a name of gpugen's own (a local gg_s would hide the registers)
kernel "own_name" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "float gg_s = 2.0f; y(i) = x(i) + gg_s;" }
-- not staged: run-time strides of rank 2 may make two own indices one element
kernel "strided" { pattern = "for", range = { "n", "m" },
  params = { { "A", "i32[n][m]", layout = "stride", access = "inout" } },
  body = "A(i, j) += 1;" }
