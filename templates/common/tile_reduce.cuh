/* tile_reduce {{NAME}}: into(t) = the reduction of elements t*TILE ..
 * t*TILE+TILE-1 (the last tile may be short), as in the HIP
 * cooperative-groups tutorial's per-tile reductions.
 *
 * A team of TEAM lanes (a power of two <= 32, the smallest that covers
 * the tile up to 32) takes one tile: its lanes read consecutive elements
 * (coalesced), fold any elements past TEAM, and shuffle within the team.
 * Teams never straddle a warp, so any TILE works, powers of two or not:
 * a tile of 3 uses teams of 4 with one idle lane, a tile of 100 a warp
 * that folds ~3 elements per lane first. */
{{COMBINE_DEF}}

typedef {{ACC_T}} acc_t;
enum { TILE = {{TILE}}, TEAM = {{TEAM}} };

{{> common/scalar_value.cuh}}

__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  const long long n = work(args);
  const long long ntiles = (n + TILE - 1) / TILE;
  const unsigned rank = g.thread % TEAM;             /* thread_rank() in the team */
  const unsigned team_in_warp = (g.thread % gg_warp_size()) / TEAM;
  const long long nteams = (long long)g.nblocks * (g.nthreads / TEAM);
  /* The loop condition is the same for the whole warp (its first team),
   * so every lane reaches the shuffles; lanes past the end fold nothing. */
  for (long long t = ((long long)g.block * g.nthreads + g.thread) / TEAM;
       t - team_in_warp < ntiles; t += nteams) {
    acc_t a = identity();
    if (t < ntiles) {
      const long long begin = t * TILE;
      const long long end = begin + TILE < n ? begin + TILE : n;
      for (long long i = begin + rank; i < end; i += TEAM) a = combine(a, value_at(args, i));
    }
    for (int d = TEAM / 2; d > 0; d >>= 1) {
      const acc_t o = gg_shfl_down(a, d);
      if (rank + d < TEAM) a = combine(a, o);
    }
    if (rank == 0 && t < ntiles) store_at(args, t, a);
  }
}
#undef GG_COMBINE
