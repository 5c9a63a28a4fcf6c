kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  body = [==[
    int z = 1'$/*';
    x(i) += 1.0f; // */
]==] }
