kernel "a" { pattern = "for", range = { 4 }, params = { { "x", "f32[4]" } }, body = "" }
persistent "p" {
  commands = { "a" },
  buffering = "triple",
}
