/* team {{NAME}}: a league of teams of {{BLOCK}} threads; one team per
 * (pseudo-)block, looping when the grid has fewer blocks than the league
 * (persistent kernels).  Scratch views live in the group's
 * shared memory, followed by the area team reductions use. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
{{> common/team_loop.cuh}}
}
