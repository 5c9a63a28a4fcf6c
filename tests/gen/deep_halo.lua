-- 50000 nested calls of a halo view in one body: the own-index proof
-- scans each call's argument once (a call inside another is covered by
-- the outer one's scan); scanning every nested call again took minutes
-- (gen/body_check.c, own_index_text).  The test's time limit catches that.
module { name = "deep_halo", targets = { "cuda" } }
local depth = 50000
local calls = string.rep("h(", depth) .. "i" .. string.rep(" > 0 ? i : i)", depth)
kernel "k" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" }, { "h", "i32[n]", halo = 1 } },
  body = "x(i) += (float)" .. calls .. ";" }
