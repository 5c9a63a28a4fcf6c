/* Phase 2 of strategy shared_tree: per-thread folding, then the classic
 * shared-memory tree in each block, then the last-block combine of the
 * per-block partials (reduce_tail_ticket.cuh). */
/* Phase 2, the classic shared-memory tree: one slot per thread, halve the
 * active threads each step with a barrier between steps (log2(block)
 * barriers: the cost this strategy shows next to warp_shuffle's two).
 * Any block size: the first step folds the part above the largest power
 * of two.  The result is valid in thread 0 (and every thread). */
GG_INLINE acc block_reduce(acc a, const gg_grid &g)
{
  acc *slot = (acc *)g.smem;
  slot[g.thread] = a;
  gg_sync(g);
  unsigned half = 1;
  while (half < g.nthreads) half <<= 1;
  for (half >>= 1; half > 0; half >>= 1) {
    if (g.thread < half && g.thread + half < g.nthreads) combine(slot[g.thread], slot[g.thread + half]);
    gg_sync(g);
  }
  a = slot[0];
  gg_sync(g); /* the slots are free again */
  return a;
}

