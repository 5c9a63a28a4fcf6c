-- `gpugen list` on every persistent layout, with block given and left out
-- (then the commands' largest block times groups), single, double and ring
-- buffering, and one kernel per pattern.  Its listing is
-- tests/gen/list/layouts.txt.  cuda only: on hip a pseudo-block is one
-- wavefront (groups_on_hip.lua is refused for that).
module { name = "layouts", targets = { "cuda" } }

kernel "scale" {
  pattern = "for", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]", access = "inout" } },
  body = "x(i) = a * x(i);",
}
kernel "total" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f64[n]" }, { "out", "f64[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out", block = 96,
}
kernel "prefix" {
  pattern = "scan", kind = "exclusive", range = { "n" },
  params = { { "x", "i32[n]" }, { "y", "i32[n]", access = "out" } },
  value = "x(i)", into = "y", block = 64,
}
kernel "team64" {
  pattern = "team", league = "n", team_size = 64,
  params = { { "x", "f32[n]", access = "inout" } },
  body = "if (team_rank == 0) x(league_rank) = 1.0f;",
}
kernel "tiles" {
  pattern = "tile_reduce", tile = 7, range = { "n" },
  params = { { "x", "i32[n]" }, { "out", "i32[ntiles]", access = "out" } },
  value = "x(i)", op = "max", into = "out",
}
persistent "one" { layout = "one_block", commands = { "scale", "total" } }
persistent "many" { layout = "many_blocks", block = 160, blocks = 3, buffering = "single",
                    commands = { "total", "scale" } }
persistent "groups" { layout = "thread_groups", groups = 3, buffering = { ring = 5 },
                      commands = { "prefix", "team64" } }
persistent "hyb" { layout = "hybrid", block = 192, groups = 3, commands = { "team64", "scale" } }
