/* Phase 2 of strategy warp_shuffle (and of deterministic, shared_atomic
 * and grid_sync, which reduce a block the same way).
 * warp_shuffle: shuffles inside each warp, one shuffle over the warps'
 * partials, and - with several blocks - one partial per block in the
 * workspace, combined by the last block to take the ticket.  No atomics
 * on the data, one kernel, no pre-initialised output: the CUB-like choice
 * of `auto`.
 * deterministic: the same pieces with a grid fixed by gpugen, not by the
 * device (GG_GRID_FIXED): every element goes to the same thread, every
 * combine happens in the same order, so floating-point results are
 * bit-identical run to run and on any device with this warp size. */
/* Shuffle tree inside one warp; lane 0 ends with the warp's result. */
GG_INLINE acc warp_reduce(acc a)
{
  for (int d = gg_warp_size() / 2; d > 0; d >>= 1) combine(a, shfl_down(a, d));
  return a;
}

/* Phase 2: warps shuffle, their lane 0 leaves a partial in shared memory,
 * the first warp shuffles the partials.  Two barriers whatever the block
 * size.  The result is valid in thread 0. */
GG_INLINE acc block_reduce(acc a, const gg_grid &g)
{
  acc *part = (acc *)g.smem; /* one per warp: at most 32 */
  const unsigned ws = gg_warp_size();
  const unsigned lane = g.thread % ws, warp = g.thread / ws;
  const unsigned nwarps = (g.nthreads + ws - 1) / ws;
  a = warp_reduce(a);
  if (nwarps == 1) return a;
  if (lane == 0) part[warp] = a;
  gg_sync(g);
  if (warp == 0) {
    a = lane < nwarps ? part[lane] : identity();
    a = warp_reduce(a);
  }
  gg_sync(g); /* the partials' slots are free again */
  return a;
}

