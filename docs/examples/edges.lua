-- What the edges do: an empty range, an exclusive scan's first element,
-- `return;` in a body.

-- n = 0: out(0) is written with the identity of min, +infinity.
kernel "smallest" {
  pattern = "reduce", range = { "n" },
  params  = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value   = "x(i)", op = "min", into = "out",
}

-- start(0) = 0 (the identity of sum), start(i) = count(0) + ... + count(i-1).
kernel "offsets" {
  pattern = "scan", kind = "exclusive", range = { "n" },
  params  = { { "count", "i64[n]" }, { "start", "i64[n]", access = "out" } },
  value   = "count(i)", into = "start",
}

-- `return;` ends the body for this index only: even values stay as they are.
kernel "negate_odd" {
  pattern = "for", range = { "n" },
  params  = { { "x", "i32[n]", access = "inout" } },
  body = [[
    if (x(i) % 2 == 0) return;
    x(i) = -x(i);
  ]],
}
