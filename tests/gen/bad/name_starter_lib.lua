-- module "session", command "packed": its typed starter would be
-- gg_session_start_packed, a function of libgg
module { name = "session" }
kernel "packed" { pattern = "for", range = { 4 }, body = "" }
persistent "p" { commands = { "packed" } }
