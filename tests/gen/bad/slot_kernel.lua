-- a kernel's view cannot be in the slot: only frames have one
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", space = "slot", max = 8 }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);" }
