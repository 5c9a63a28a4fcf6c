  {{UNPACK}}
  const long long league_size = {{LEAGUE}};
  const int team_size = (int)g.nthreads;
  const int team_rank = (int)g.thread;
  {{SCRATCH}}
  void *gg_team_red = (void *)(g.smem + {{SCRATCH_BYTES}});
#define team_barrier() gg_sync(g)
#define team_sum(v) gg_group_reduce(g, (v), gg_team_red, gg_op_add())
#define team_min(v) gg_group_reduce(g, (v), gg_team_red, gg_op_min())
#define team_max(v) gg_group_reduce(g, (v), gg_team_red, gg_op_max())
{{VIEW_MACROS}}
  for (long long league_rank = g.block; league_rank < league_size; league_rank += g.nblocks) {
    {{INDEX_DECODE}}
    /* the body runs in a lambda so that `return;` ends this team's work
       (every thread of the team must still reach the same barriers) */
    [&]() {
{{BODY}}
    }();
  }
{{VIEW_UNDEFS}}
#undef team_barrier
#undef team_sum
#undef team_min
#undef team_max