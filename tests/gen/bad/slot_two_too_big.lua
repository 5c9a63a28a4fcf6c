-- two slot views together over 16384 bytes (each fits alone)
kernel "add" { pattern = "for", range = { "n" },
  params = { { "a", "f64[n]" }, { "b", "f64[n]" }, { "y", "f64[n]", access = "out" } },
  body = "y(i) = a(i) + b(i);" }
frame "f" { params = { { "a", "f64[n]", space = "slot", max = 1024 },
                       { "b", "f64[n]", space = "slot", max = 1025 }, { "y", "f64[n]" } },
  stages = { { "add" } } }
