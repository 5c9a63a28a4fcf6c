/* Phase 3 of strategy grid_sync: two phases in one cooperative kernel:
 * every block reduces its share and leaves a partial, the whole grid meets
 * at a barrier, block 0 combines the partials in block order. */

template <class gg_Pre = gg_no_pre> /* a fused for stage (reduce_fold.cuh) */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g, const gg_Pre &gg_pre = gg_Pre())
{
  acc a = thread_fold(args, g, gg_pre);
  a = block_reduce(a, g);
  if (g.nblocks == 1) {
    if (g.thread == 0) store(args, g, a);
    return;
  }
  acc *part = ws_partials(args);
  if (g.thread == 0) part[g.block] = a;
  /* Phase boundary: the grid barrier (cooperative launch, every block
   * co-resident) orders every block's partial before block 0 reads. */
  gg_grid_sync((unsigned *)((char *)args.gg_ws + GG_REDUCE_WS_BARRIER_OFF));
  if (g.block != 0) return;
  acc b = identity();
  for (unsigned i = g.thread; i < g.nblocks; i += g.nthreads) combine(b, load_partial(&part[i]));
  b = block_reduce(b, g);
  if (g.thread == 0) store(args, g, b);
}
#undef GG_COMBINE
