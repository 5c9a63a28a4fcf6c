-- command "a" of persistent "p" makes GG_NAME_COMMAND_ID_P_CMD_A, the
-- argument index of parameter "a" of kernel "p_cmd"
kernel "a" { pattern = "for", range = { 4 }, body = "" }
kernel "p_cmd" { pattern = "for", range = { 4 }, params = { { "a", "i32" } }, body = "" }
persistent "p" { commands = { "a" } }
