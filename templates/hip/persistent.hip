/* ---- persistent kernel {{NAME}} (HIP) --------------------------------------
 * Launched once; loops over frames posted in a host-mapped mailbox (layout
 * in include/gg_protocol.h, whose text gpugen pastes at the top of the
 * source).  Per frame: warp 0 of each block reads the slot's tagged words
 * in one round trip (lane 0's load of the command word is the
 * system-scope acquire),
 * the command and its argument struct go to shared memory, every
 * (pseudo-)block runs the command's body on the virtual grid, and ONE
 * thread release-stores the slot's done number (with several blocks: the
 * block whose arrival completes the frame).
 * The HIP twin of templates/cuda/persistent.cuh: same mailbox, same
 * loop; the atomics are hiprtc's scoped builtins, the polling "warp" is a
 * wavefront (64 lanes on CDNA, 32 on RDNA), and pseudo-blocks are at most
 * one wavefront (the HIP prelude's gg_sync has no named barriers).
 * No __threadfence_system() on the way: the release store orders the
 * frame's writes (measured: an extra fence costs ~0.3 us per frame).
 */
#ifndef GG_PERSIST_HELPERS
#define GG_PERSIST_HELPERS

/* The frame's acknowledgement (gg_protocol.h): as in the CUDA twin. */
struct gg_p_ack_of {
  const void *src; /* the one-element result view */
  unsigned bytes;  /* 0: no result */
  bool relaxed;    /* stored without the system-scope release */
  bool noted;      /* the result's only writer notes it (gg_result_note) */
};

/* The seen line (gg_protocol.h), as in the CUDA twin. */
GG_INLINE volatile unsigned long long *gg_p_seen_line(const gg_persist_params &pp,
                                                      unsigned slot_bytes)
{
  return (volatile unsigned long long *)((char *)pp.dev + GG_PERSIST_SEEN_OFF(slot_bytes));
}

GG_INLINE void gg_p_ack(char *done, unsigned long long frame, const gg_p_ack_of &a,
                        const gg_result_shadow &note, bool timed, unsigned long long seen,
                        unsigned long long end)
{
  unsigned long long bits = 0;
  if (a.noted && note.p == a.src) /* stored by this block in this frame */
    bits = note.bits;
  else if (a.bytes == 8)
    bits = *(const volatile unsigned long long *)a.src;
  else if (a.bytes == 4)
    bits = *(const volatile unsigned *)a.src;
  else if (a.bytes == 2)
    bits = *(const volatile unsigned short *)a.src;
  else if (a.bytes == 1)
    bits = *(const volatile unsigned char *)a.src;
  unsigned long long *w = (unsigned long long *)done;
  if (a.bytes > 4)
    gg_store_relaxed_sys(w + GG_MBOX_ACK2_OFF / 8u, GG_MBOX_ACK(frame, bits >> 32));
  const unsigned long long busy = timed ? end - seen : 0;
  if (a.relaxed)
    gg_store_relaxed_sys(w, GG_MBOX_ACK(frame, bits));
  else
    gg_store_release_sys(w, GG_MBOX_ACK(frame, bits));
  if (timed) { /* device times (gg_protocol.h): after the ack, as on CUDA */
    gg_store_relaxed_sys(w + GG_MBOX_SEEN_LO_OFF / 8u, GG_MBOX_ACK(frame, seen));
    gg_store_relaxed_sys(w + GG_MBOX_SEEN_HI_OFF / 8u, GG_MBOX_ACK(frame, seen >> 32));
    gg_store_relaxed_sys(w + GG_MBOX_BUSY_OFF / 8u,
                       GG_MBOX_ACK(frame, busy < GG_MBOX_BUSY_MAX ? busy : GG_MBOX_BUSY_MAX));
  }
}
/* Several blocks: before frame f, wait until every block has finished
 * frame f-1, so frames stay in order when the host queues them (ring).
 * With one slot the host cannot post f before f-1 is done, so this wait
 * overlaps the host's round trip.  False when the abort line is set. */
GG_INLINE bool gg_p_wait_arrivals(const unsigned long long *arrive, unsigned long long target,
                                  const char *mbox)
{
  for (unsigned spins = 1; gg_load_acquire_gpu(arrive) < target; ++spins)
    if ((spins & 1023u) == 0 &&
        gg_host_aborted(mbox))
      return false;
  return true;
}
GG_INLINE void gg_p_exit_status(char *mbox, unsigned reason, unsigned long long frames)
{
  *(volatile unsigned long long *)(mbox + GG_MBOX_FRAMES_OFF) = frames;
  *(volatile unsigned *)(mbox + GG_MBOX_REASON_OFF) = reason;
  gg_store_release_sys((unsigned *)(mbox + GG_MBOX_STATE_OFF), (unsigned)GG_MBOX_STATE_EXITED);
}

/* Warp 0 of a block: wait for frame `frame` in `slot`.  Each poll reads
 * the command word and the nwords-1 argument words in ONE round trip: the
 * argument loads are issued first (relaxed), then lane 0's acquire of the
 * command word, so they are in flight together.  A word whose tag is not
 * this frame's is stale: poll again.  Payloads land in args (shared).
 * Returns the command, or GG_MBOX_CMD_EXIT with *reason set.  The abort
 * line and the heartbeat are looked at only every 1024 polls. */
GG_INLINE unsigned gg_p_poll(char *mbox, const char *slot, unsigned long long frame,
                             unsigned nwords, unsigned *args, unsigned *reason)
{
  const unsigned lane = threadIdx.x % warpSize;
  const unsigned long long *w = (const unsigned long long *)slot;
  const unsigned long long *hb = (const unsigned long long *)(mbox + GG_MBOX_HEARTBEAT_OFF);
  const unsigned tag = (unsigned)frame;
  unsigned long long hb_seen = 0, hb_time = 0;
  if (lane == 0) {
    hb_seen = gg_load_relaxed_sys(hb);
    hb_time = gg_clock_ns();
  }
  for (unsigned spins = 1;; ++spins) {
    bool ok = true;
    for (unsigned i = lane == 0 ? (unsigned)warpSize : lane; i < nwords; i += warpSize) {
      const unsigned long long v = gg_load_relaxed_sys(w + i);
      ok = ok && (unsigned)(v >> 32) == tag;
      args[i - 1] = (unsigned)v;
    }
    unsigned long long w0 = 0;
    if (lane == 0)
      w0 = gg_load_acquire_sys(w);
    const unsigned cmd = __shfl((unsigned)w0, 0);
    const unsigned tag0 = __shfl((unsigned)(w0 >> 32), 0);
    if (cmd == GG_MBOX_CMD_EXIT) {
      *reason = GG_MBOX_EXIT_ABORT;
      return GG_MBOX_CMD_EXIT;
    }
    if (__ballot(!ok) == 0 && tag0 == tag) /* reads here go back to back: no use for AHEAD */
      return cmd & ~GG_MBOX_CMD_AHEAD;
    if ((spins & 1023u) == 0) {
      unsigned why = 0;
      if (lane == 0) {
        const unsigned long long stale_ns =
            gg_load_relaxed_sys((const unsigned long long *)(mbox + GG_MBOX_STALE_OFF));
        const unsigned long long h = gg_load_relaxed_sys(hb), now = gg_clock_ns();
        if (gg_host_aborted(mbox))
          why = GG_MBOX_EXIT_ABORT;
        else if (h != hb_seen) {
          hb_seen = h;
          hb_time = now;
        } else if (stale_ns != 0 && now - hb_time > stale_ns)
          why = GG_MBOX_EXIT_STALE;
      }
      why = __shfl(why, 0);
      if (why) {
        *reason = why;
        return GG_MBOX_CMD_EXIT;
      }
    }
  }
}
/* The larger of two sizes, for the largest argument struct below. */
__host__ __device__ constexpr unsigned long long gg_p_max(unsigned long long a, unsigned long long b)
{
  return a > b ? a : b;
}
#endif /* GG_PERSIST_HELPERS */

extern "C" __global__ void __launch_bounds__({{BLOCK}}) {{SYMBOL}}(gg_persist_params pp)
{
  /* The largest argument struct of the commands, in bytes and in 4-byte words. */
  constexpr unsigned long long gg_args_bytes = ({{ARGS_MAX}});
  constexpr unsigned gg_args_nwords = (gg_args_bytes + 3) / 4;
  /* Tagged words of a slot for the plan's slot size (the host's count); an
   * empty argument struct is 0 bytes there and 1 in C++. */
  constexpr unsigned gg_nw = GG_MBOX_WORDS({{SLOT_BYTES}}u);
  static_assert(gg_args_bytes == {{SLOT_BYTES}}u || ({{SLOT_BYTES}}u == 0 && gg_args_bytes == 1),
                "the plan's mailbox slot is the largest command's argument struct");
  __shared__ __attribute__((aligned(16))) unsigned args_words[gg_args_nwords];
  __shared__ unsigned command;
  __shared__ gg_result_shadow gg_note; /* this block's result note (prelude) */
  const unsigned groups = {{GROUPS}};
  const int multi = {{MULTI}};          /* several hardware blocks */
  const unsigned group_threads = blockDim.x / groups;
  const unsigned group = threadIdx.x / group_threads;
  const bool leader = threadIdx.x == 0;
  char *const mbox = (char *)pp.mbox;
  unsigned long long *arrive = (unsigned long long *)((char *)pp.dev + GG_PERSIST_ARRIVE_OFF);
  /* Device times: as in the CUDA twin (block 0's poll sets seen; nothing
   * of it held in a register across the command). */
  __shared__ unsigned long long gg_seen;

  gg_grid g;
  g.block = blockIdx.x * groups + group;
  g.nblocks = gridDim.x * groups;
  g.thread = threadIdx.x - group * group_threads;
  g.nthreads = group_threads;
  g.bar_id = groups > 1 ? 1 + group : 0;
  g.smem = gg_smem + group * pp.group_smem;
  g.note = &gg_note;

  if (leader && blockIdx.x == 0)
    gg_store_release_sys((unsigned *)(mbox + GG_MBOX_STATE_OFF), (unsigned)GG_MBOX_STATE_RUNNING);
  unsigned reason = 0;
  unsigned long long frame = 1;
  for (;; ++frame) {
    char *slot = mbox + GG_MBOX_SLOTS_OFF + ((frame - 1) % pp.nslots) * pp.slot_stride;
    if (threadIdx.x < (unsigned)warpSize) { /* wavefront 0 of every block polls */
      bool go = true;
      if (multi && leader && frame > 1)
        go = gg_p_wait_arrivals(arrive, (frame - 1) * gridDim.x, mbox);
      unsigned cmd = GG_MBOX_CMD_EXIT;
      if (__shfl((unsigned)go, 0))
        cmd = gg_p_poll(mbox, slot, frame, gg_nw, args_words, &reason);
      else
        reason = GG_MBOX_EXIT_ABORT;
      if ((pp.flags & GG_PERSIST_TIMES) && leader && blockIdx.x == 0) {
        gg_seen = gg_clock_ns();
        if (multi)
          gg_p_seen_line(pp, {{SLOT_BYTES}}u)[frame & 1u] = gg_seen;
      }
      if (leader) {
        command = cmd;
        gg_note.p = nullptr; /* no result noted in this frame yet */
      }
    }
    __syncthreads();
    const unsigned cmd = command;
    if (cmd == GG_MBOX_CMD_EXIT)
      break;
    gg_p_ack_of ack = {0, 0u, false, false};
    switch (cmd) {
{{CASES}}
    default: /* the host posts only commands 0..n-1 */
      break;
    }
    __syncthreads(); /* also: nobody reads args_words / command of this frame any more */
    /* The arrival is acq_rel: the block that completes the frame has seen
     * every block's writes before it releases the frame to the host.  A
     * timed frame's end is read before the arrival: once the last block
     * arrives, block 0 may see the next post, and its seen time must not
     * come before this frame's end. */
    const bool timed = (pp.flags & GG_PERSIST_TIMES) != 0;
    const unsigned long long end = timed && leader ? gg_clock_ns() : 0;
    if (leader && (!multi || gg_ticket_take(arrive) + 1 == frame * gridDim.x)) {
      if (timed && multi) /* block 0 stored it before its arrival */
        gg_seen = gg_p_seen_line(pp, {{SLOT_BYTES}}u)[frame & 1u];
      gg_p_ack(slot + GG_MBOX_DONE_IN_SLOT(pp.slot_stride), frame, ack, gg_note, timed, gg_seen,
               end);
    }
  }
  if (leader && blockIdx.x == 0)
    gg_p_exit_status(mbox, reason, frame - 1);
}
