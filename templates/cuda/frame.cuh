/* ---- frame barriers (CUDA) --------------------------------------------
 * Between two stages of a frame that depend on each other, every
 * hardware block of the persistent kernel meets here.  Two words in the
 * frame's workspace, each on its own 128-byte line so arrivals and polls
 * never contend for one line:
 *   +0   count: arrivals, monotone, never reset (one per block per barrier)
 *   +128 gen:   barriers completed, monotone; written only by the block
 *               whose arrival completes a barrier
 * Each block's thread 0, after a __syncthreads (so one arrival per
 * block), adds one arrival with a release RMW at gpu scope.  The block
 * that makes the count want x gridDim.x publishes gen = want with a
 * release store (its implicit fence after the RMW's read also makes it
 * acquire every earlier arrival); the others poll gen with relaxed loads
 * in L2 - no atomics in the poll loop, so the pollers do not queue behind
 * the arrivals at the counter's L2 slice - and finish with one acquire
 * load.  gg_grid_barrier in the prelude instead spins with acquire loads
 * on the word the arrivals hit, resets the counter with an atomicExch
 * and bumps the generation with a second atomic: three serialized RMWs
 * and two fences on the critical path of every barrier.
 * want starts at the gen read when the frame begins: every block passed
 * the previous frame's last barrier before the frame-end arrival, and the
 * loop relays a frame only after every block arrived, so that read is
 * stable.  One grid: __syncthreads only.
 */
#ifndef GG_FRAME_HELPERS
#define GG_FRAME_HELPERS
#define GG_FRAME_COUNT_OFF 0u
#define GG_FRAME_GEN_OFF 128u
#define GG_FRAME_WS_HEAD 256u  /* stage workspaces start here, 256-byte aligned */
#define GG_FRAME_ABORT_EVERY 4095u /* polls between looks at the host's abort line */

struct gg_frame_bar {
  unsigned long long want; /* thread 0: the gen the next barrier completes */
};

GG_INLINE unsigned long long gg_fb_ld_relaxed(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE unsigned long long gg_fb_ld_acquire(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE unsigned long long gg_fb_arrive(unsigned long long *p)
{
  unsigned long long old;
  asm volatile("atom.release.gpu.global.add.u64 %0, [%1], 1;" : "=l"(old) : "l"(p) : "memory");
  return old;
}
GG_INLINE void gg_fb_publish(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.release.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GG_INLINE unsigned long long gg_fb_ld_sys(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

GG_INLINE void gg_frame_bar_begin(gg_frame_bar &b, char *ws)
{
  b.want = 0;
  if (threadIdx.x == 0 && gridDim.x > 1)
    b.want = gg_fb_ld_relaxed((const unsigned long long *)(ws + GG_FRAME_GEN_OFF));
}

/* Every thread of every block calls it; false when the host aborted the
 * session while this block waited (the frame then stops). */
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
    if (gg_fb_arrive(count) + 1 == want * gridDim.x) {
      gg_fb_publish(gen, want);
    } else {
      for (unsigned spins = 1; gg_fb_ld_relaxed(gen) < want; ++spins)
        if ((spins & GG_FRAME_ABORT_EVERY) == 0 && gg_fb_ld_sys((const unsigned long long *)mbox)) {
          ok = 0;
          break;
        }
      if (ok)
        (void)gg_fb_ld_acquire(gen); /* pairs with the publishing block's release */
    }
    gg_fb_ok = ok;
  }
  __syncthreads();
  return gg_fb_ok != 0;
}
#endif /* GG_FRAME_HELPERS */
