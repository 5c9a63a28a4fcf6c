/* ---- frame barriers (HIP) ----------------------------------------------
 * The same protocol as templates/cuda/frame.cuh (read it for why): a
 * monotone arrival count and a separate generation word on their own
 * 128-byte lines in the frame's workspace, one arrival per block after a
 * __syncthreads, the completing block publishes, the others poll the
 * generation with relaxed loads and finish with one acquire.  Built with
 * clang's scoped atomics (agent = the GPU); never run on an AMD GPU here.
 */
#ifndef GG_FRAME_HELPERS
#define GG_FRAME_HELPERS
/* the workspace's words: GG_FRAME_COUNT_OFF, GG_FRAME_GEN_OFF (gg_abi.h) */
#define GG_FRAME_ABORT_EVERY 4095u

struct gg_frame_bar {
  unsigned long long want;
};

GG_INLINE void gg_frame_bar_begin(gg_frame_bar &b, char *ws)
{
  b.want = 0;
  if (threadIdx.x == 0 && gridDim.x > 1)
    b.want = gg_load_relaxed_gpu((unsigned long long *)(ws + GG_FRAME_GEN_OFF));
}

GG_INLINE bool gg_frame_barrier(gg_frame_bar &b, char *ws, const char *mbox)
{
  __shared__ unsigned gg_fb_ok;
  __syncthreads();
  if (gridDim.x == 1)
    return true;
  if (threadIdx.x == 0) {
    unsigned long long *count = (unsigned long long *)(ws + GG_FRAME_COUNT_OFF);
    unsigned long long *gen = (unsigned long long *)(ws + GG_FRAME_GEN_OFF);
    unsigned ok = 1;
    const unsigned long long want = ++b.want;
    const unsigned long long old =
        gg_ticket_take(count);
    if (old + 1 == want * gridDim.x) {
      gg_store_release_gpu(gen, want);
    } else {
      for (unsigned spins = 1;
           gg_load_relaxed_gpu(gen) < want; ++spins)
        if ((spins & GG_FRAME_ABORT_EVERY) == 0 && gg_host_aborted(mbox)) {
          ok = 0;
          break;
        }
      if (ok)
        (void)gg_load_acquire_gpu(gen);
    }
    gg_fb_ok = ok;
  }
  __syncthreads();
  return gg_fb_ok != 0;
}

/* ---- neighbour waits (HIP): templates/cuda/frame.cuh's protocol (read
 * it for why): a monotone progress word per pseudo-block, stored with
 * release after the block's sync, both neighbours' polled relaxed, then
 * one acquire load of each before the block's sync. */
struct gg_fn_progress {
  unsigned long long done;
  char *words;
  unsigned stride;
};

GG_INLINE unsigned long long *gg_fn_word(const gg_fn_progress &n, unsigned block)
{
  return (unsigned long long *)(n.words + (unsigned long long)block * n.stride);
}

GG_INLINE void gg_fn_begin(gg_fn_progress &n, const gg_grid &g, char *words, unsigned stride)
{
  n.words = words;
  n.stride = stride;
  n.done = 0;
  if (g.thread == 0 && g.nblocks > 1)
    n.done = gg_load_relaxed_gpu(gg_fn_word(n, g.block));
}

GG_INLINE bool gg_fn_wait(unsigned long long *w, unsigned long long want, const char *mbox)
{
  for (unsigned spins = 1;
       gg_load_relaxed_gpu(w) < want; ++spins)
    if ((spins & GG_FRAME_ABORT_EVERY) == 0 && gg_host_aborted(mbox))
      return false;
  (void)gg_load_acquire_gpu(w);
  return true;
}

GG_INLINE bool gg_fn_wait_neighbours(gg_fn_progress &n, const gg_grid &g, const char *mbox)
{
  __shared__ unsigned gg_fn_ok[33]; /* per pseudo-block: bar_id 0..32 */
  gg_sync(g);
  if (g.nblocks == 1)
    return true;
  if (g.thread == 0) {
    const unsigned long long want = ++n.done;
    gg_store_release_gpu(gg_fn_word(n, g.block), want);
    const unsigned left = g.block ? g.block - 1 : g.nblocks - 1;
    const unsigned right = g.block + 1 < g.nblocks ? g.block + 1 : 0;
    gg_fn_ok[g.bar_id] = gg_fn_wait(gg_fn_word(n, left), want, mbox) &&
                         gg_fn_wait(gg_fn_word(n, right), want, mbox);
  }
  gg_sync(g);
  return gg_fn_ok[g.bar_id] != 0;
}
#endif /* GG_FRAME_HELPERS */
