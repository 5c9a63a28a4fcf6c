kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  body = [[
    asm volatile(".incbin \"/etc/hostname\"");
    x(i) += 1.0f;]] }
