/* Phase 3 of strategy shared_atomic: per-thread folding, a warp shuffle,
 * one shared-memory atomic per warp, then one global atomic per block (the
 * oneAPI guide's work-group atomic reduction); the last block copies the
 * result out. */

template <class gg_Pre = gg_no_pre> /* a fused for stage (reduce_fold.cuh) */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g, const gg_Pre &gg_pre = gg_Pre())
{
  acc *block_acc = (acc *)g.smem;
  acc a = thread_fold(args, g, gg_pre);
  if (g.thread == 0) {
    *block_acc = identity();
    if ({{WS_INIT}}) init_accumulator(args);
  }
  gg_sync(g);
  /* Warp-aggregate first, so the shared atomic is taken once per warp
   * instead of once per thread; then one global atomic per block. */
  a = warp_reduce(a);
  if (g.thread % gg_warp_size() == 0) {
#pragma unroll
    for (int k = 0; k < NV; ++k) atomic_merge(&block_acc->v[k], a.v[k]);
  }
  gg_sync(g);
  if (g.thread == 0) {
    acc *accum = ws_accumulator(args);
#pragma unroll
    for (int k = 0; k < NV; ++k) atomic_merge(&accum->v[k], block_acc->v[k]);
    finish_atomic(args, g);
  }
}
#undef GG_COMBINE
