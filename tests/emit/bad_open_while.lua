-- A body whose last statement is left open (a bare `while (c)`): it must
-- stay a compile error at the body's last line (7: the text's second
-- line) in both compilers, not become a loop with an empty body.
kernel "bad_open_while" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  body = "x(i) = 1.0f;\nwhile (x(i) > 0.0f)" }
