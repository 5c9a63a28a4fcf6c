/* The team loop with contribute() around the body; then the team's
 * threads and the blocks combine.  The reduction's shared memory comes
 * after the scratch views and team_sum's area ({{RED_SMEM}} bytes in),
 * so a thread still reading scratch in its last team is never
 * overwritten.  An empty league (or a block with no team) contributes
 * the identity: league 0 writes the identity into every element. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  gg_acc gg_mine = identity();
  {
#define contribute(...) gg_contribute(gg_mine, __VA_ARGS__)
{{> common/team_loop.cuh}}
#undef contribute
  }
  gg_grid gg_rg = g;
  gg_rg.smem = g.smem + {{RED_SMEM}};
  finish(args, gg_rg, block_reduce(gg_mine, gg_rg));
}
#undef GG_COMBINE
