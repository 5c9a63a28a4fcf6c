/* The for pattern's loops over a virtual grid, once per source at file
 * scope (gen/source.c renders them before the first for kernel). */

/* Every index of [0, work) once on the virtual grid g: consecutive
 * threads take consecutive linear indices (coalesced on the contiguous
 * dimension), V per thread and step, striding by the whole virtual grid,
 * so any grid - classic, or the fixed one of a persistent kernel - covers
 * the range.  At step k (pseudo-)block b takes chunk c = k nblocks + b,
 * g.nthreads x V consecutive indices from lo: at(i, lo, c) runs index i
 * (a frame's halo exchange publishes and reads chunk edges:
 * halo_exchange.cuh). */
template <int V, class F> GG_INLINE void gg_grid_stride(const gg_grid &g, long long work, F at)
{
  const long long chunk = (long long)g.nthreads * V, step = chunk * g.nblocks;
  long long lo = (long long)g.block * chunk, c = g.block;
  for (long long base = lo + (long long)g.thread * V; base < work;
       base += step, lo += step, c += g.nblocks) {
#pragma unroll
    for (int v = 0; v < V; ++v) {
      if (base + v >= work) break;
      at(base + v, lo, c);
    }
  }
}

/* Rounds of U whole steps from base (every index of each in the range)
 * in three passes: load(i, s) the staged views of each index into
 * registers s, run(i, s) the bodies on them, store(i, s) the views they
 * write.  The U x V loads of a pass are independent, so they are in
 * flight together; the plain loop waits one memory round trip per step
 * (gen/plan.c, plan_staging).  Then rounds of U / 2, ... 1 for what is
 * left, so a thread runs only the code of the steps it has: a thread of
 * one step no longer issued all U steps' predicated loads and stores
 * (measured on the H100: a 32K, 8-stage chain on 132 blocks took 0.15
 * us a stage instead of 0.08).  Returns the base of the first step left,
 * which no longer has all its V indices in the range. */
template <int V, int U, class S, class L, class R, class W>
GG_INLINE long long gg_stage_rounds(long long base, long long step, long long work, L &load,
                                    R &run, W &store)
{
  for (; base + (U - 1) * step + (V - 1) < work; base += U * step) {
    S s[U][V];
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int v = 0; v < V; ++v) load(base + u * step + v, s[u][v]);
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int v = 0; v < V; ++v) run(base + u * step + v, s[u][v]);
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int v = 0; v < V; ++v) store(base + u * step + v, s[u][v]);
  }
  if constexpr (U > 1)
    return gg_stage_rounds<V, U / 2, S>(base, step, work, load, run, store);
  else
    return base;
}

/* The same indices as gg_grid_stride, up to U steps a round
 * (gg_stage_rounds), then the indices of a last step past the range's
 * end one at a time. */
template <int V, int U, class S, class L, class R, class W>
GG_INLINE void gg_grid_stride_staged(const gg_grid &g, long long work, L load, R run, W store)
{
  const long long chunk = (long long)g.nthreads * V, step = chunk * g.nblocks;
  long long base = (long long)g.block * chunk + (long long)g.thread * V;
  base = gg_stage_rounds<V, U, S>(base, step, work, load, run, store);
  for (int v = 0; v < V && base + v < work; ++v) {
    S s;
    load(base + v, s);
    run(base + v, s);
    store(base + v, s);
  }
}
