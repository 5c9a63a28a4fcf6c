/* ---- persistent kernel {{NAME}} --------------------------------------
 * Launched once; loops over frames posted in a host-mapped mailbox (layout
 * in include/gg_protocol.h, whose text gpugen pastes at the top of the
 * source).  Per frame: warp 0 of block 0 reads the slot's tagged words with ONE
 * warp-wide system-scope acquire load (one PCIe round trip: command and
 * arguments together, lane 0's word 0 pairs with the host's release).  With several blocks it relays the same tagged
 * words to a record in device memory, which the other blocks' warp 0 poll
 * in L2 (measured on an H100: every block polling the host over PCIe made
 * 16 blocks 9x slower).  Every (pseudo-)block runs the command's body on
 * the virtual grid, and ONE thread stores the slot's acknowledgement: the
 * frame's tag and its result, if it has one (with several blocks: the
 * block whose arrival completes the frame); with release at system scope
 * unless the result is all the host reads (gg_protocol.h).
 * No __threadfence_system() on the way: the release store orders the
 * frame's writes (measured: an extra fence costs ~0.3 us per frame).
 */
#ifndef GG_PERSIST_HELPERS
#define GG_PERSIST_HELPERS

/* Block 0, several blocks: before relaying frame f, wait until every
 * block has finished frame f-1 (and so read its record), so frames stay
 * in order when the host queues them (ring).  Called before the poll for
 * frame f: with one slot the host cannot post f before f-1 is done, so
 * the wait overlaps the host's round trip.  False when the abort line is
 * set. */
GG_INLINE bool gg_p_wait_arrivals(const unsigned long long *arrive, unsigned long long target,
                                  const char *mbox)
{
  for (unsigned spins = 1; gg_load_acquire_gpu(arrive) < target; ++spins)
    if ((spins & 1023u) == 0 &&
        gg_host_aborted(mbox))
      return false;
  return true;
}
/* The frame's acknowledgement (gg_protocol.h): a command with a result
 * sets where it lies and how the ack is stored (the generator's plan). */
struct gg_p_ack_of {
  const void *src; /* the one-element result view */
  unsigned bytes;  /* 0: no result */
  bool relaxed;    /* stored without the system-scope release */
  bool noted;      /* the result's only writer notes it (gg_result_note) */
};
/* The seen line (gg_protocol.h): block 0's time of the post, by frame
 * parity, for the block that stores the ack when there are several. */
GG_INLINE volatile unsigned long long *gg_p_seen_line(const gg_persist_params &pp,
                                                      unsigned slot_bytes)
{
  return (volatile unsigned long long *)((char *)pp.dev + GG_PERSIST_SEEN_OFF(slot_bytes));
}

/* The leader, once the frame is complete: the frame's writes are visible
 * to it (its block's __syncthreads, or the acq_rel arrival that completed
 * the frame), so it reads the result (volatile: relaxed, never a stale
 * read-only-cache line) and stores it, tagged, in the ack words.  ack2
 * (8-byte results) first, then ack: each carries the tag, so the host
 * takes neither half from an older frame.  With no result this is the
 * release store of the done tag alone.  Where this block's thread stored
 * the result (noted), the leader takes its bits from shared memory.
 * timed: the frame's device times go after the ack (gg_protocol.h: a
 * release would first wait for them): seen is when block 0 saw the
 * post, end when the frame was complete (read before the arrival). */
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
  if (timed) { /* after the ack: a release would first wait for them */
    gg_store_relaxed_sys(w + GG_MBOX_SEEN_LO_OFF / 8u, GG_MBOX_ACK(frame, seen));
    gg_store_relaxed_sys(w + GG_MBOX_SEEN_HI_OFF / 8u, GG_MBOX_ACK(frame, seen >> 32));
    gg_store_relaxed_sys(w + GG_MBOX_BUSY_OFF / 8u,
                        GG_MBOX_ACK(frame, busy < GG_MBOX_BUSY_MAX ? busy : GG_MBOX_BUSY_MAX));
  }
}

GG_INLINE void gg_p_exit_status(char *mbox, unsigned reason, unsigned long long frames)
{
  *(volatile unsigned long long *)(mbox + GG_MBOX_FRAMES_OFF) = frames;
  *(volatile unsigned *)(mbox + GG_MBOX_REASON_OFF) = reason;
  gg_store_release_sys((unsigned *)(mbox + GG_MBOX_STATE_OFF), (unsigned)GG_MBOX_STATE_EXITED);
}

/* Is the host gone?  Lane 0, every 1024 polls: the abort line, then the
 * heartbeat (first looked at here, not at the start of each frame: a read
 * across PCIe before the first poll would delay every frame). */
GG_INLINE unsigned gg_p_check_host(const char *mbox, unsigned long long *hb_seen,
                                   unsigned long long *hb_time)
{
  const unsigned long long *hb = (const unsigned long long *)(mbox + GG_MBOX_HEARTBEAT_OFF);
  if (gg_host_aborted(mbox))
    return GG_MBOX_EXIT_ABORT;
  const unsigned long long stale_ns =
      gg_load_relaxed_sys((const unsigned long long *)(mbox + GG_MBOX_STALE_OFF));
  const unsigned long long h = gg_load_relaxed_sys(hb), now = gg_clock_ns();
  if (*hb_time == 0 || h != *hb_seen) {
    *hb_seen = h;
    *hb_time = now;
  } else if (stale_ns != 0 && now - *hb_time > stale_ns)
    return GG_MBOX_EXIT_STALE;
  return 0;
}

/* When block 0's warp 0 reads the host's slot: a train of reads in phase
 * with the host.  One read of host memory is in flight at a time (a round
 * trip, ~1.2 us on an H100: a second polling warp made every read slower,
 * bench/poll_probe.cu), so a frame the host posts waits for the next read
 * to reach it - anywhere from nothing to a round trip, decided by where
 * the post falls between two reads.  A frame loop posts at a steady delay
 * after it sees the acknowledgement, and reads going back to back from
 * the ack come at steady delays too: each run locked into one phase, and
 * a frame's p50 was set by the luck of it (an empty frame 2.6 to 3.6 us
 * as the host's delay moved across one round trip).  So the reads follow
 * a train on the SM's clock, read j at t0 + phi + j P (t0: the poll's
 * start, P an eighth over the fastest round trip seen), and the train's
 * phase phi follows the host: EARLIER cycles earlier after each frame,
 * LATER cycles back when that made a frame wait for a later read than the
 * frame before did.  It settles with a read just after the host's store;
 * about one frame in 33 (EARLIER / (EARLIER + LATER)) waits for the next
 * read.  A host that posts ahead (frames queued) is met by the first
 * read: phi goes to 0 and stays.  Measured on the H100 (bench/RESULTS.md,
 * 2026-11-27, against back-to-back reads, p50): the empty frame 2.47 us
 * (3.39), examples/app's 4.98 (5.43); 32 / 128 moved faster and missed
 * one frame in five (empty p99 3.9 us), 4 / 512 followed the app's host
 * too slowly (5.6 us).  Times are the SM's clock cycles (clock64), which
 * count every cycle. */
struct gg_p_phase {
  long long phi;    /* the train's phase: cycles after the poll's start */
  long long rtt;    /* the fastest read of the slot seen, in cycles (0: none yet) */
  long long r_prev; /* cycles after its poll's start at which the last frame's read went (-1: none) */
  bool ahead;       /* the last frame was posted ahead (GG_MBOX_CMD_AHEAD): read at once */
};
#define GG_P_PHASE_EARLIER 16ll
#define GG_P_PHASE_LATER 512ll
GG_INLINE long long gg_p_period(const gg_p_phase &ph) { return ph.rtt + ph.rtt / 8; }
/* Lane 0 waits for the train's next read, due at cycle *next (at once
 * after a frame posted ahead: the next one is likely there already), and
 * moves *next one period on; every lane gets the cycle the read goes at.
 * The train advances by addition, never by a read count times P: a poll
 * may run for hours and count more reads than 32 bits hold.  A read is
 * never held more than two periods: were the clock to jump (a block
 * resumed on another SM after preemption reads that SM's counter), the
 * poll goes on reading, back to back until the next frame's train. */
GG_INLINE long long gg_p_phase_wait(const gg_p_phase &ph, long long *next)
{
  const long long P = gg_p_period(ph);
  long long now = 0;
  if ((threadIdx.x & 31u) == 0) {
    now = clock64();
    const long long at = ph.ahead || *next - now > 2 * P ? now : *next;
    while ((now = clock64()) < at) {
    }
  }
  *next += P;
  return __shfl_sync(0xffffffffu, now, 0);
}
/* The read that went at `went` is back: the fastest round trip, which
 * creeps up (at most 1/256 a read) when reads get slower - a clock change,
 * not one slow read. */
GG_INLINE void gg_p_phase_read(gg_p_phase &ph, long long went)
{
  const long long d = clock64() - went, up = ph.rtt / 256 + 1;
  if (d <= 0) /* the clock jumped back (see gg_p_phase_wait): no round trip to learn from */
    return;
  if (ph.rtt == 0 || d < ph.rtt)
    ph.rtt = d;
  else
    ph.rtt += (d - ph.rtt) / 64 < up ? (d - ph.rtt) / 64 : up;
}
/* The frame was in a read that went r cycles after the poll started
 * (first: the poll's first read); cmd is its command word, whose
 * GG_MBOX_CMD_AHEAD says how to read the next.  A frame read at once
 * (posted ahead) says nothing of the phase. */
GG_INLINE void gg_p_phase_caught(gg_p_phase &ph, long long r, bool first, unsigned cmd)
{
  const bool was_ahead = ph.ahead;
  ph.ahead = (cmd & GG_MBOX_CMD_AHEAD) != 0;
  if (was_ahead) {
    ph.r_prev = -1;
    return;
  }
  const long long P = gg_p_period(ph);
  if (ph.r_prev >= 0 && r > ph.r_prev + P / 2) /* a later read than the frame before */
    ph.phi += GG_P_PHASE_LATER;
  else if (ph.phi >= GG_P_PHASE_EARLIER)
    ph.phi -= GG_P_PHASE_EARLIER;
  else /* past 0: the train wraps, unless the first read met the frame */
    ph.phi = first ? 0 : ph.phi + P - GG_P_PHASE_EARLIER;
  if (ph.phi >= P)
    ph.phi -= P;
  ph.r_prev = r;
}

/* Warp 0: wait for frame `frame` in the NW tagged words at w (the host's
 * slot with SYS, block 0's record in device memory without).  Each poll
 * is ONE warp-wide acquire load per 32 words, all in flight together; a
 * word whose tag is not this frame's is stale: poll again.  Nothing is
 * kept until every tag matches, then lane i holds word i in *word and
 * argument words go to args (shared).  Returns the command, or
 * GG_MBOX_CMD_EXIT with *reason set. */
template <unsigned NW, bool SYS>
GG_INLINE unsigned gg_p_poll(const char *mbox, const unsigned long long *w,
                             unsigned long long frame, unsigned *args,
                             unsigned long long (&word)[(NW + 31) / 32], unsigned *reason,
                             gg_p_phase &ph)
{
  const unsigned lane = threadIdx.x & 31u;
  const unsigned tag = (unsigned)frame;
  const unsigned long long mine = (unsigned long long)tag << 32; /* for lanes past NW */
  unsigned long long hb_seen = 0, hb_time = 0;
  const long long t0 = SYS ? clock64() : 0;
  long long next = t0 + ph.phi;
  for (unsigned spins = 1;; ++spins) {
    const long long went = SYS ? gg_p_phase_wait(ph, &next) : 0;
    bool ok = true;
#pragma unroll
    for (unsigned k = 0; k < (NW + 31) / 32; ++k) {
      const unsigned i = k * 32 + lane;
      if (i < NW)
        word[k] = SYS ? gg_load_acquire_sys(w + i) : gg_load_acquire_gpu(w + i);
      else
        word[k] = mine;
    }
#pragma unroll
    for (unsigned k = 0; k < (NW + 31) / 32; ++k)
      ok = ok && (unsigned)(word[k] >> 32) == tag;
    const unsigned cmd = __shfl_sync(0xffffffffu, (unsigned)word[0], 0);
    if (cmd == GG_MBOX_CMD_EXIT) { /* the exit word: any tag */
      *reason = GG_MBOX_EXIT_ABORT;
      return GG_MBOX_CMD_EXIT;
    }
    const bool all = __all_sync(0xffffffffu, ok);
    if (SYS)
      gg_p_phase_read(ph, went);
    if (all) {
      if (SYS)
        gg_p_phase_caught(ph, went - t0, spins == 1, cmd);
#pragma unroll
      for (unsigned k = 0; k < (NW + 31) / 32; ++k)
        if (k * 32 + lane >= 1 && k * 32 + lane < NW)
          args[k * 32 + lane - 1] = (unsigned)word[k];
      return cmd & ~GG_MBOX_CMD_AHEAD;
    }
    if ((spins & 1023u) == 0) {
      unsigned why = 0;
      if (lane == 0)
        why = SYS ? gg_p_check_host(mbox, &hb_seen, &hb_time)
                  : (gg_host_aborted(mbox)
                         ? (unsigned)GG_MBOX_EXIT_ABORT : 0u);
      why = __shfl_sync(0xffffffffu, why, 0);
      if (why) {
        *reason = why;
        return GG_MBOX_CMD_EXIT;
      }
    }
  }
}
/* A ring (several slots), block 0's warp 0: frames the host queued ahead
 * are read together.  One warp-wide acquire load takes the tagged words
 * of K consecutive slots (lane L: word L % NW of frame first + L / NW), so
 * a frame already in the batch costs no PCIe round trip of its own: only
 * the first frame of a batch waits for the host (measured before on an
 * H100: the poll's ~1 us round trip was most of a ring frame's 2.3 us).
 * The batch keeps the frames whose words all carry their own tag, up to
 * the first that does not (not posted yet, or half written): each word
 * proves itself, as in gg_p_poll, and lane j*NW's acquire of word 0 of
 * frame first + j pairs with the host's release of that slot.  The
 * frame's words are then handed to lanes 0..NW-1 exactly as gg_p_poll
 * leaves them.  K = min(batch, nslots): never two frames in one slot.
 * word is the caller's array of (NW + 31) / 32 words, of which a batch
 * (NW <= 16) fills the first: a pointer, because the kernel names this
 * call even where the plan batches nothing, and a kernel that is not a
 * template type-checks the branch of an `if constexpr` it never takes. */
struct gg_p_batch {
  unsigned long long w;     /* this lane's word of the batch */
  unsigned long long first; /* the batch's first frame */
  unsigned count;           /* frames of the batch whose words all matched */
};
template <unsigned NW, unsigned BATCH>
GG_INLINE unsigned gg_p_next(const char *mbox, const char *slots, unsigned stride,
                             unsigned nslots, unsigned slot_i, unsigned long long frame,
                             unsigned *args, unsigned long long *word, gg_p_batch &b,
                             unsigned *reason, gg_p_phase &ph)
{
  static_assert(NW * BATCH <= 32, "a batch is one warp-wide load");
  const unsigned lane = threadIdx.x & 31u, j = lane / NW;
  if (frame - b.first >= b.count) { /* not in the batch: read the next one */
    const unsigned k = BATCH < nslots ? BATCH : nslots;
    unsigned long long hb_seen = 0, hb_time = 0;
    const long long t0 = clock64();
    long long next = t0 + ph.phi;
    for (unsigned spins = 1;; ++spins) {
      const long long went = gg_p_phase_wait(ph, &next);
      unsigned long long w = (unsigned long long)(unsigned)(frame + j) << 32; /* lanes past it */
      if (j < k) {
        const unsigned s = slot_i + j < nslots ? slot_i + j : slot_i + j - nslots;
        w = gg_load_acquire_sys((const unsigned long long *)(slots + (size_t)s * stride) + lane % NW);
      }
      if (__shfl_sync(0xffffffffu, (unsigned)w, 0) == GG_MBOX_CMD_EXIT) { /* any tag */
        *reason = GG_MBOX_EXIT_ABORT;
        return GG_MBOX_CMD_EXIT;
      }
      const unsigned bad =
          __ballot_sync(0xffffffffu, j < k && (unsigned)(w >> 32) != (unsigned)(frame + j));
      const unsigned whole = bad ? (unsigned)(__ffs(bad) - 1) / NW : k;
      gg_p_phase_read(ph, went);
      if (whole > 0) {
        gg_p_phase_caught(ph, went - t0, spins == 1, (unsigned)__shfl_sync(0xffffffffu, w, 0));
        b.w = w;
        b.first = frame;
        b.count = whole;
        break;
      }
      if ((spins & 1023u) == 0) {
        unsigned why = lane == 0 ? gg_p_check_host(mbox, &hb_seen, &hb_time) : 0u;
        why = __shfl_sync(0xffffffffu, why, 0);
        if (why) {
          *reason = why;
          return GG_MBOX_CMD_EXIT;
        }
      }
    }
  }
  const unsigned base = (unsigned)(frame - b.first) * NW;
  const unsigned long long mine = __shfl_sync(0xffffffffu, b.w, base + (lane < NW ? lane : 0u));
  word[0] = lane < NW ? mine : (unsigned long long)(unsigned)frame << 32;
  if (lane >= 1 && lane < NW)
    args[lane - 1] = (unsigned)mine;
  const unsigned cmd = (unsigned)__shfl_sync(0xffffffffu, b.w, base);
  if (cmd == GG_MBOX_CMD_EXIT) /* the abort word, in a later slot of the batch */
    return cmd;
  ph.ahead = (cmd & GG_MBOX_CMD_AHEAD) != 0;
  return cmd & ~GG_MBOX_CMD_AHEAD;
}
#ifdef GG_NVSHMEM
/* The relay (gg_protocol.h): rank 0's host alone posts, rank 0's kernel
 * hands each frame to the other ranks' kernels over NVLink, which run the
 * command their hosts left them (gg_session_follow).  One host round
 * trip a frame for the whole team, and no rank waits for another host's
 * post to reach its GPU (each process posting its own frame: the skew
 * between the hosts' posts lands in the first exchange's wait). */

/* Rank 0, lane 0 of block 0's warp 0 (or the thread that acknowledges):
 * every other rank's done word has reached `frame`.  The waiting bytes
 * name a rank that keeps it waiting past a look at the abort line, as an
 * exchange's wait does.  False when the host aborted meanwhile. */
GG_INLINE bool gg_p_relay_done(const char *sym, unsigned long long frame, const char *mbox)
{
  const volatile unsigned long long *done =
      (const volatile unsigned long long *)(sym + GG_RELAY_DONE_OFF);
  const int n = nvshmem_n_pes();
  for (int pe = 1; pe < n; ++pe) {
    bool marked = false;
    for (unsigned spins = 1; done[pe] < frame; ++spins)
      if ((spins & GG_FRAME_ABORT_EVERY) == 0) {
        gg_xchg_waiting(mbox, pe, 1);
        marked = true;
        if (gg_host_aborted(mbox))
          return false;
      }
    if (marked)
      gg_xchg_waiting(mbox, pe, 0);
  }
  return true;
}
/* Rank 0, block 0's warp 0, once its poll returned `frame`: every other
 * rank's signal word set to it, a lane a rank (NVSHMEM's signal op: one
 * store into the peer's memory, nothing waited for).  Not before each
 * rank finished the frame before: a frame posted ahead must not overwrite
 * a number a rank has not taken yet.  False when the host aborted. */
GG_INLINE bool gg_p_relay_post(char *sym, unsigned long long frame, unsigned cmd,
                               const char *mbox)
{
  unsigned ok = 1;
  if ((threadIdx.x & 31u) == 0 && frame > 1)
    ok = gg_p_relay_done(sym, frame - 1, mbox);
  if (!__shfl_sync(0xffffffffu, ok, 0))
    return false;
  const int n = nvshmem_n_pes();
  for (int pe = 1 + (int)(threadIdx.x & 31u); pe < n; pe += 32)
    nvshmemx_signal_op((uint64_t *)(sym + GG_RELAY_SIGNAL_OFF), GG_RELAY_WORD(frame, cmd),
                       NVSHMEM_SIGNAL_SET, pe);
  return true;
}
/* A following rank, lane 0 of block 0's warp 0: wait until rank 0 has
 * relayed a frame after *relayed, and take its number and command (*cmd).
 * A local word in L2, polled back to back; the abort line (host memory)
 * is looked at every 4096 polls.  False when the host aborted
 * (terminate). */
GG_INLINE bool gg_p_relay_next(const char *sym, unsigned long long *relayed, unsigned *cmd,
                               const char *mbox)
{
  const volatile unsigned long long *sig =
      (const volatile unsigned long long *)(sym + GG_RELAY_SIGNAL_OFF);
  for (unsigned spins = 1;; ++spins) {
    const unsigned long long v = *sig;
    if (GG_RELAY_FRAME(v) > *relayed) {
      *relayed = GG_RELAY_FRAME(v);
      *cmd = GG_RELAY_CMD(v);
      return true;
    }
    if ((spins & GG_FRAME_ABORT_EVERY) == 0 && gg_host_aborted(mbox))
      return false;
  }
}
/* A following rank, the thread that completes relayed frame r: its word
 * of rank 0's done line set to r, after a fence that orders the frame's
 * writes (its block's, and the others' through the acq_rel arrival)
 * before it at system scope, as a release ack orders them for a host:
 * whoever rank 0's acknowledgement tells of the frame sees them. */
GG_INLINE void gg_p_relay_finish(char *sym, unsigned long long r)
{
  __threadfence_system();
  nvshmemx_signal_op((uint64_t *)(sym + GG_RELAY_DONE_OFF) + nvshmem_my_pe(), r,
                     NVSHMEM_SIGNAL_SET, 0);
}
#endif /* GG_NVSHMEM */
/* The larger of two sizes, for the largest argument struct below. */
__host__ __device__ constexpr unsigned long long gg_p_max(unsigned long long a, unsigned long long b)
{
  return a > b ? a : b;
}
#endif /* GG_PERSIST_HELPERS */

/* The fewest blocks an SM must hold, which bounds the registers ptxas
 * may give a thread: the runtime passes it as -DGG_MIN_BLOCKS_<symbol>
 * for a kernel of several blocks, from the block and this device's SMs
 * (runtime/module.c, ggr_module_options); one block otherwise.  Left to
 * its own guess ptxas kept these kernels to 64 registers and batched a
 * body's loads less. */
#ifndef GG_MIN_BLOCKS_{{SYMBOL}}
#define GG_MIN_BLOCKS_{{SYMBOL}} 1
#endif
extern "C" __global__ void __launch_bounds__({{BLOCK}}, GG_MIN_BLOCKS_{{SYMBOL}}) {{SYMBOL}}(gg_persist_params pp)
{
  /* The largest argument struct of the commands, in bytes and in 4-byte
   * words: the storage the slot's arguments are copied into. */
  constexpr unsigned long long gg_args_bytes = ({{ARGS_MAX}});
  constexpr unsigned gg_args_nwords = (gg_args_bytes + 3) / 4;
  /* Tagged words of a slot: the command word, then one per argument word,
   * for the plan's slot size - the host's count (gg_persistent_desc.
   * slot_args_size).  The plan counts an empty argument struct as 0 bytes
   * where C++ gives it 1, so the storage may hold one byte more. */
  constexpr unsigned gg_nw = GG_MBOX_WORDS({{SLOT_BYTES}}u);
  static_assert(gg_args_bytes == {{SLOT_BYTES}}u || ({{SLOT_BYTES}}u == 0 && gg_args_bytes == 1),
                "the plan's mailbox slot is the largest command's argument struct");
  /* Slots a ring's poll reads at once (the plan: 32 / words per slot). */
  constexpr unsigned gg_batch = {{RING_BATCH}}u;
  __shared__ __align__(16) unsigned args_words[gg_args_nwords];
  __shared__ unsigned command;
  __shared__ gg_result_shadow gg_note; /* this block's result note (prelude) */
  const unsigned groups = {{GROUPS}};
  const int multi = {{MULTI}};          /* several hardware blocks */
  const unsigned group_threads = blockDim.x / groups;
  const unsigned group = threadIdx.x / group_threads;
  const bool leader = threadIdx.x == 0;
  char *const mbox = (char *)pp.mbox;
  unsigned long long *arrive = (unsigned long long *)((char *)pp.dev + GG_PERSIST_ARRIVE_OFF);
  unsigned long long *record = (unsigned long long *)((char *)pp.dev + GG_PERSIST_RECORD_OFF);
  /* Device times (gg_protocol.h): block 0's leader reads the clock when
   * its poll returns a frame; with several blocks it leaves the time in
   * the seen line, two entries by frame parity (block 0 can be one frame
   * ahead of the block that stores the ack, never two).  Nothing of it
   * lives in a register across the command: the flag and the line are
   * read from the parameters where used, the time is kept in shared
   * memory.  At 1024 threads a block has 64 registers a thread, and a
   * register held across the body made ptxas spill inside the matmul
   * loop (+5 % on persistent_bench's matmul 128x128 one_block). */
  __shared__ unsigned long long gg_seen;
  /* Block 0, a rank following rank 0 (gg_protocol.h: GG_MBOX_CMD_FOLLOW):
   * the command word its host posted (0: not following) and the number of
   * the last relayed frame it ran.  Its arguments stay in args_words. */
#ifdef GG_NVSHMEM
  constexpr bool peers = {{PEERS}}; /* frames on a team: the relay */
#else
  constexpr bool peers = false; /* no exchange in the module: no team to relay to */
#endif
  __shared__ unsigned gg_follow;
  __shared__ unsigned long long gg_relayed;
  /* Each command's gg_seq, in 4-byte argument words (-1: none): a
   * following rank gives every relayed frame a fresh one, as the host
   * does each post (publications and scans tag their words with it). */
  constexpr int gg_seq_word[] = { {{SEQ_WORDS}} };
  if (threadIdx.x == 0) {
    gg_follow = 0;
    gg_relayed = 0;
  }

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
  unsigned slot_i = 0; /* (frame - 1) % nslots, without a 64-bit division */
  gg_p_batch batch = {0, 0, 0}; /* block 0's warp 0, a ring: frames read ahead */
  gg_p_phase phase = {0, 0, -1, false}; /* block 0's warp 0: when it reads the host's slot */
  for (;; ++frame, slot_i = slot_i + 1 == pp.nslots ? 0 : slot_i + 1) {
    char *slot = mbox + GG_MBOX_SLOTS_OFF + slot_i * pp.slot_stride;
    if (threadIdx.x < 32) {
      unsigned long long word[(gg_nw + 31) / 32];
      unsigned cmd;
      if (blockIdx.x == 0) {
        /* Several blocks: the relay below overwrites the record they all
           read, so first every block must have finished frame f - 1.
           Waited for before the poll, where it overlaps the host's round
           trip (after it, as this kernel once did, it added one L2 trip
           to every frame of a many-block layout). */
        bool go = true;
        if (multi && leader && frame > 1)
          go = gg_p_wait_arrivals(arrive, (frame - 1) * gridDim.x, mbox);
        __syncwarp(); /* lane 0's gg_follow of the last frame */
        if (!__shfl_sync(0xffffffffu, (unsigned)go, 0)) {
          cmd = GG_MBOX_CMD_EXIT;
          reason = GG_MBOX_EXIT_ABORT;
        } else if (peers && gg_follow) {
          /* following: the kept command and arguments, tagged with this
             frame, a fresh gg_seq in its word (never 0, above every one
             before: the host's count of a command's frames is below the
             kernel's count of all frames) */
          cmd = gg_follow;
          const int sw = gg_seq_word[cmd & ~GG_MBOX_CMD_FOLLOW];
          const unsigned seq = (unsigned)frame ? (unsigned)frame : 1u;
#pragma unroll
          for (unsigned k = 0; k < (gg_nw + 31) / 32; ++k) {
            const unsigned i = k * 32 + (threadIdx.x & 31u);
            unsigned payload = cmd;
            if (i >= 1 && i < gg_nw) {
              payload = (int)i - 1 == sw ? seq : args_words[i - 1];
              args_words[i - 1] = payload;
            }
            word[k] = (unsigned long long)(unsigned)frame << 32 | payload;
          }
        } else if constexpr (gg_batch > 1) {
          if (pp.nslots > 1)
            cmd = gg_p_next<gg_nw, gg_batch>(
                mbox, mbox + GG_MBOX_SLOTS_OFF, pp.slot_stride, pp.nslots, slot_i, frame,
                args_words, word, batch, &reason, phase);
          else
            cmd = gg_p_poll<gg_nw, true>(mbox, (const unsigned long long *)slot, frame,
                                         args_words, word, &reason, phase);
        } else {
          cmd = gg_p_poll<gg_nw, true>(mbox, (const unsigned long long *)slot, frame,
                                       args_words, word, &reason, phase);
        }
#ifdef GG_NVSHMEM
        if (peers && cmd != GG_MBOX_CMD_EXIT) {
          unsigned ok = 1;
          if (cmd & GG_MBOX_CMD_FOLLOW) {
            /* a following rank: rank 0's next frame (the first: the first
               it relays once this rank's host posted the command); one of
               another command runs on rank 0 alone: this rank skips it
               (GG_RELAY_SKIP: no case) and reports it done */
            unsigned relayed_cmd = 0;
            if (leader) {
              gg_follow = cmd;
              ok = gg_p_relay_next((const char *)pp.sym, &gg_relayed, &relayed_cmd, mbox);
              gg_p_seen_line(pp, {{SLOT_BYTES}}u)[GG_PERSIST_RELAYED_WORD + (frame & 1u)] =
                  gg_relayed;
            }
            ok = __shfl_sync(0xffffffffu, ok, 0);
            relayed_cmd = __shfl_sync(0xffffffffu, relayed_cmd, 0);
            if (relayed_cmd != (cmd & ~GG_MBOX_CMD_FOLLOW)) {
              cmd = GG_MBOX_CMD_FOLLOW | GG_RELAY_SKIP;
              if ((threadIdx.x & 31u) == 0) /* word 0, as relayed to the other blocks */
                word[0] = (unsigned long long)(unsigned)frame << 32 | cmd;
            }
          } else if (pp.flags & GG_PERSIST_RELAY) {
            ok = gg_p_relay_post((char *)pp.sym, frame, cmd, mbox);
          }
          if (!ok) {
            cmd = GG_MBOX_CMD_EXIT;
            reason = GG_MBOX_EXIT_ABORT;
          }
        }
#endif
        if ((pp.flags & GG_PERSIST_TIMES) && leader) {
          gg_seen = gg_clock_ns();
          if (multi)
            gg_p_seen_line(pp, {{SLOT_BYTES}}u)[frame & 1u] = gg_seen;
        }
        if (multi) { /* relay: the tagged words as they came, or the exit word */
          __syncwarp(); /* lane 0's acquire from the host, before every lane's release */
          if (cmd == GG_MBOX_CMD_EXIT) {
            if (leader)
              gg_store_release_gpu(record, GG_MBOX_WORD_ABORT);
          } else {
#pragma unroll
            for (unsigned k = 0; k < (gg_nw + 31) / 32; ++k)
              if (k * 32 + (threadIdx.x & 31u) < gg_nw)
                gg_store_release_gpu(record + k * 32 + (threadIdx.x & 31u), word[k]);
          }
        }
      } else {
        cmd = gg_p_poll<gg_nw, false>(mbox, record, frame, args_words, word, &reason, phase);
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
    switch (cmd & ~GG_MBOX_CMD_FOLLOW) {
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
    unsigned long long end = timed && leader ? gg_clock_ns() : 0;
    if (leader && (!multi || gg_ticket_take(arrive) + 1 == frame * gridDim.x)) {
      if (timed && multi) /* block 0 stored it before its arrival */
        gg_seen = gg_p_seen_line(pp, {{SLOT_BYTES}}u)[frame & 1u];
#ifdef GG_NVSHMEM
      if (peers && (cmd & GG_MBOX_CMD_FOLLOW)) { /* rank 0 hears of it, not this host */
        gg_p_relay_finish((char *)pp.sym,
                          gg_p_seen_line(pp, {{SLOT_BYTES}}u)[GG_PERSIST_RELAYED_WORD + (frame & 1u)]);
        continue;
      }
      if (peers && (pp.flags & GG_PERSIST_RELAY)) {
        if (!gg_p_relay_done((const char *)pp.sym, frame, mbox))
          continue; /* aborted: the next poll sees it */
        if (timed) /* the frame ends when the last rank's does */
          end = gg_clock_ns();
      }
#endif
      gg_p_ack(slot + GG_MBOX_DONE_IN_SLOT(pp.slot_stride), frame, ack, gg_note, timed, gg_seen,
               end);
    }
  }
  if (leader && blockIdx.x == 0)
    gg_p_exit_status(mbox, reason, frame - 1);
}
