kernel "t" { pattern="team", league="m", team_size=64, params={{"x","f32[m]",access="inout"}}, body="if (team_rank==0) x(league_rank)+=1.0f;" }
kernel "u" { pattern="team", league="m", team_size=128, params={{"x","f32[m]",access="inout"}}, body="if (team_rank==0) x(league_rank)+=1.0f;" }
frame "f" { params = { { "x", "f32[m]" } }, stages = { { "t" }, { "u" } } }
persistent "p" { commands = { "f" } }
