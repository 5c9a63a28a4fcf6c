/* Phase 3 of strategy global_atomic: per-thread folding, then one atomic
 * per thread on a single accumulator in the workspace (the oneAPI guide's
 * global-atomic reduction); the last block copies it into the output and
 * puts the identity back. */

template <class gg_Pre = gg_no_pre> /* a fused for stage (reduce_fold.cuh) */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g, const gg_Pre &gg_pre = gg_Pre())
{
  acc a = thread_fold(args, g, gg_pre);
  if ({{WS_INIT}}) {
    if (g.thread == 0) init_accumulator(args);
    gg_sync(g);
  }
  /* The raw strategy, exactly as named: every thread sends its own
   * partial to the same address.  Contended float atomics serialize in
   * L2; this is the lesson the benchmark shows, never an auto choice. */
  acc *accum = ws_accumulator(args);
#pragma unroll
  for (int k = 0; k < NV; ++k) atomic_merge(&accum->v[k], a.v[k]);
  gg_sync(g);
  if (g.thread == 0) finish_atomic(args, g);
}
#undef GG_COMBINE
