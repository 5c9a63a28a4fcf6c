-- a kernel named like its module adds nothing to generated names, so its
-- parameter "nargs" meets its own GG_INNER_NARGS
module { name = "inner" }
kernel "inner" {
  pattern = "for", range = { 4 },
  params = { { "nargs", "i32" } },
  body = "",
}
