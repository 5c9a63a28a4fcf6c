kernel "a" { pattern = "for", range = { 4 }, params = { { "x", "f32[4]" } }, body = "" }
persistent "p" {
  commands = { "a" },
  layout = "one_block",
  blocks = 4,
}
