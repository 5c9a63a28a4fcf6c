/* Phase 2 of strategy cg_tile: per-thread folding, then thread-block
 * tiles of 16 (tile shuffles, tile partials in shared memory), then the
 * last-block combine (reduce_tail_ticket.cuh). */
/* Phase 2 with thread-block tiles, as in the HIP cooperative-groups
 * tutorial: the block is partitioned into tiles of TILE_W threads
 * (tiled_partition<16>); each tile reduces with shuffles, its rank-0
 * thread leaves a partial in shared memory, and the first tile reduces
 * the partials.  Written on the prelude's shuffles because hiprtc has no
 * cooperative_groups; a 16-lane tile never crosses a warp (32 or 64). */
enum { TILE_W = 16 };

GG_INLINE acc tile_reduce(acc a)
{
  for (int d = TILE_W / 2; d > 0; d >>= 1) combine(a, shfl_down(a, d));
  return a; /* valid in the tile's thread_rank() 0 */
}

GG_INLINE acc block_reduce(acc a, const gg_grid &g)
{
  acc *part = (acc *)g.smem; /* one per tile: at most 64 */
  const unsigned tile = g.thread / TILE_W, rank = g.thread % TILE_W;
  const unsigned ntiles = (g.nthreads + TILE_W - 1) / TILE_W;
  a = tile_reduce(a);
  if (ntiles == 1) return a;
  if (rank == 0) part[tile] = a;
  gg_sync(g);
  /* the whole first warp takes part (shuffles need converged warps);
   * only its first tile carries partials */
  if (g.thread < (unsigned)gg_warp_size()) {
    a = identity();
    if (g.thread < TILE_W)
      for (unsigned t = g.thread; t < ntiles; t += TILE_W) combine(a, part[t]);
    a = tile_reduce(a);
  }
  gg_sync(g);
  return a;
}

