-- docs/examples/gain.lua
-- The C API a workload gets (docs/examples/gain_host.c runs it): typed
-- launchers, command ids and typed starters.
module { name = "gain", targets = { "cuda", "hip" } }

kernel "gain" {                  -- named like the module: gg_gain_launch, GG_GAIN_X
  pattern = "for", range = { "n" },
  params  = { { "k", "f16" }, { "x", "f32[n]", access = "inout" } },
  body    = "x(i) = x(i) * (float)k;",
}

kernel "total" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value   = "x(i)", op = "sum", into = "out",
}

frame "step" {                   -- gain, then total, with one handshake
  params = { { "k", "f16" }, { "x", "f32[n]" }, { "out", "f32[1]" } },
  stages = { { "gain" }, { "total" } },
}

persistent "loop" { commands = { "gain", "step" }, buffering = "double" }
