/* ---- persistent kernel {{NAME}} --------------------------------------
 * Launched once; loops over frames posted in a host-mapped mailbox (layout
 * in include/gg_session.h).  Per frame: ONE thread of block 0 acquires the
 * slot's sequence at system scope, the command and its argument struct
 * are broadcast through shared memory (and, with several blocks, through
 * device memory), every (pseudo-)block runs the command's body on the
 * virtual grid, and ONE thread release-stores the slot's done number.
 * No __threadfence_system() on the way: the release store orders the
 * frame's writes (measured: an extra fence costs ~0.3 us per frame).
 */
#ifndef GG_PERSIST_HELPERS
#define GG_PERSIST_HELPERS
#define GG_MBOX_ABORT_OFF 0u
#define GG_MBOX_HEARTBEAT_OFF 128u
#define GG_MBOX_STATUS_OFF 256u
#define GG_MBOX_ERROR_OFF 384u
#define GG_MBOX_SLOTS_OFF 512u
#define GG_MBOX_SLOT_HEADER 16u
#define GG_MBOX_LINE 128u
#define GG_MBOX_SEQ_ABORT 0xffffffffffffffffull
#define GG_PERSIST_GEN_OFF 0u
#define GG_PERSIST_ARRIVE_OFF 128u
#define GG_PERSIST_FRAME_OFF 256u
#define GG_P_EXIT 0xffffffffu
enum { GG_P_STATE_RUNNING = 1, GG_P_STATE_EXITED = 2 };
enum { GG_P_EXIT_ABORT = 1, GG_P_EXIT_STALE = 2, GG_P_EXIT_BAD_COMMAND = 3 };

struct gg_persist_params { /* = gg_persist_params in gg_session.h */
  char *mbox;
  char *dev;
  unsigned nslots, slot_stride, groups, group_smem;
};

GG_INLINE unsigned long long gg_p_ld_relaxed_sys(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE unsigned long long gg_p_ld_acquire_gpu(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE void gg_p_st_release_gpu(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.release.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GG_INLINE void gg_p_add_release_gpu(unsigned long long *p, unsigned long long v)
{
  asm volatile("red.release.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GG_INLINE void gg_p_exit_status(char *mbox, unsigned reason, unsigned long long frames)
{
  unsigned *st = (unsigned *)(mbox + GG_MBOX_STATUS_OFF);
  *(volatile unsigned long long *)(mbox + GG_MBOX_STATUS_OFF + 8) = frames;
  *(volatile unsigned *)(st + 1) = reason;
  gg_store_release_sys(st, (unsigned)GG_P_STATE_EXITED);
}

/* Block 0's leader: wait for frame `frame` in `slot`.  Returns the
 * command, or GG_P_EXIT with *reason set.  The hot loop reads ONE
 * location; the abort line and the heartbeat are looked at only every
 * 1024 polls, so they add no traffic to the handshake. */
GG_INLINE unsigned gg_p_wait_host(char *mbox, char *slot, unsigned long long frame,
                                  unsigned backoff_ns, unsigned *reason)
{
  const unsigned long long *seq = (const unsigned long long *)slot;
  const unsigned long long *hb = (const unsigned long long *)(mbox + GG_MBOX_HEARTBEAT_OFF);
  unsigned long long hb_seen = gg_p_ld_relaxed_sys(hb), hb_time = gg_clock_ns();
  for (unsigned spins = 1;; ++spins) {
    const unsigned long long s = gg_load_acquire_sys(seq);
    if (s == frame)
      return *(volatile unsigned *)(slot + 8);
    if (s == GG_MBOX_SEQ_ABORT) {
      *reason = GG_P_EXIT_ABORT;
      return GG_P_EXIT;
    }
    if ((spins & 1023u) == 0) {
      if (gg_p_ld_relaxed_sys((const unsigned long long *)(mbox + GG_MBOX_ABORT_OFF))) {
        *reason = GG_P_EXIT_ABORT;
        return GG_P_EXIT;
      }
      const unsigned long long stale_ns = gg_p_ld_relaxed_sys(hb + 1);
      const unsigned long long h = gg_p_ld_relaxed_sys(hb), now = gg_clock_ns();
      if (h != hb_seen) {
        hb_seen = h;
        hb_time = now;
      } else if (stale_ns != 0 && now - hb_time > stale_ns) {
        *reason = GG_P_EXIT_STALE;
        return GG_P_EXIT;
      }
    }
    if (backoff_ns)
      gg_nanosleep(backoff_ns);
  }
}
#endif /* GG_PERSIST_HELPERS */

/* The largest argument struct of the commands, in 8-byte words. */
#define GG_P_WORDS_{{NAME}} ((({{ARGS_MAX}}) + 7) / 8)

extern "C" __global__ void __launch_bounds__({{BLOCK}}) {{SYMBOL}}(gg_persist_params pp)
{
  __shared__ unsigned long long args_words[GG_P_WORDS_{{NAME}}];
  __shared__ unsigned command;
  const unsigned groups = {{GROUPS}};
  const int multi = {{MULTI}};          /* several hardware blocks */
  const unsigned backoff_ns = {{BACKOFF_NS}};
  const unsigned group_threads = blockDim.x / groups;
  const unsigned group = threadIdx.x / group_threads;
  const bool leader = threadIdx.x == 0;
  const bool master = leader && blockIdx.x == 0;
  unsigned long long *gen = (unsigned long long *)(pp.dev + GG_PERSIST_GEN_OFF);
  unsigned long long *arrive = (unsigned long long *)(pp.dev + GG_PERSIST_ARRIVE_OFF);
  char *record = pp.dev + GG_PERSIST_FRAME_OFF;

  gg_grid g;
  g.block = blockIdx.x * groups + group;
  g.nblocks = gridDim.x * groups;
  g.thread = threadIdx.x - group * group_threads;
  g.nthreads = group_threads;
  g.bar_id = groups > 1 ? 1 + group : 0;
  g.smem = gg_smem + group * pp.group_smem;

  if (master)
    gg_store_release_sys((unsigned *)(pp.mbox + GG_MBOX_STATUS_OFF), (unsigned)GG_P_STATE_RUNNING);
  unsigned reason = 0;
  unsigned long long frame = 1;
  for (;; ++frame) {
    char *slot = pp.mbox + GG_MBOX_SLOTS_OFF + ((frame - 1) % pp.nslots) * pp.slot_stride;
    if (leader) {
      unsigned cmd;
      const unsigned long long *src;
      if (blockIdx.x == 0) {
        cmd = gg_p_wait_host(pp.mbox, slot, frame, backoff_ns, &reason);
        src = (const unsigned long long *)(slot + GG_MBOX_SLOT_HEADER);
      } else {
        /* Other blocks wait in device memory (L2), not across PCIe. */
        unsigned long long gv;
        while ((gv = gg_p_ld_acquire_gpu(gen)) < frame)
          ;
        cmd = gv == GG_MBOX_SEQ_ABORT ? GG_P_EXIT : *(volatile unsigned *)record;
        src = (const unsigned long long *)(record + GG_MBOX_SLOT_HEADER);
      }
      if (cmd != GG_P_EXIT) {
#pragma unroll
        for (int w = 0; w < GG_P_WORDS_{{NAME}}; ++w)
          args_words[w] = src[w];
      }
      if (multi && blockIdx.x == 0) {
        /* Publish the frame to the other blocks; they finished reading the
         * previous record before arriving at the end of the last frame. */
        unsigned long long *dst = (unsigned long long *)(record + GG_MBOX_SLOT_HEADER);
        for (int w = 0; cmd != GG_P_EXIT && w < GG_P_WORDS_{{NAME}}; ++w)
          dst[w] = args_words[w];
        *(volatile unsigned *)record = cmd;
        gg_p_st_release_gpu(gen, cmd == GG_P_EXIT ? GG_MBOX_SEQ_ABORT : frame);
      }
      command = cmd;
    }
    __syncthreads();
    const unsigned cmd = command;
    if (cmd == GG_P_EXIT)
      break;
    switch (cmd) {
{{CASES}}
    default:
      if (master) {
        *(volatile unsigned *)(pp.mbox + GG_MBOX_ERROR_OFF) = GG_P_EXIT_BAD_COMMAND;
        *(volatile unsigned *)(pp.mbox + GG_MBOX_ERROR_OFF + 4) = cmd;
        *(volatile unsigned long long *)(pp.mbox + GG_MBOX_ERROR_OFF + 8) = frame;
      }
      break;
    }
    __syncthreads();
    if (leader && multi && blockIdx.x != 0)
      gg_p_add_release_gpu(arrive, 1);
    if (master) {
      if (multi)
        while (gg_p_ld_acquire_gpu(arrive) < frame * (gridDim.x - 1))
          ;
      gg_store_release_sys((unsigned long long *)(slot + pp.slot_stride - GG_MBOX_LINE), frame);
    }
  }
  if (master)
    gg_p_exit_status(pp.mbox, reason, frame - 1);
}
