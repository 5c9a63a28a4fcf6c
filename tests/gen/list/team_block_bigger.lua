kernel "t" { pattern="team", league="m", team_size=64, params={{"x","f32[m]",access="inout"}}, body="if (team_rank==0) x(league_rank)+=1.0f;" }
persistent "p1" { commands = { "t" }, block = 128 }
