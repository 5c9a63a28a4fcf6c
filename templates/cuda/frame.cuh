/* ---- frame barriers (CUDA) --------------------------------------------
 * Between two stages of a frame that depend on each other across threads,
 * every hardware block of the persistent kernel meets here.  One word of
 * the frame's workspace, on its own 128-byte line:
 *   +0   count: arrivals, monotone, never reset (one per block per barrier)
 * (+128 held the generation word of the earlier two-word barrier; the
 * head keeps its 256 bytes so the HIP barrier and the plan are unchanged.)
 *
 * Per barrier, on the critical path: one __syncthreads, one acq_rel RMW
 * per block, acquire polls of the same word until it reaches this
 * barrier's total, one __syncthreads.  The earlier design had
 * the last arriver wait for its RMW's answer and then publish a separate
 * generation word (a release store: a second fence and a second trip to
 * L2), and every waiter re-read that word with ld.acquire after its poll
 * (a third trip): about 1.8 us per barrier at 132 blocks on the H100
 * (bench/RESULTS.md, 2026-11-24).  Here a waiter is released by the very
 * arrival that completes the count.
 *
 * Memory model (PTX ISA, "Memory Consistency Model"), the fences one by one:
 *   1. __syncthreads before the arrival: bar.sync orders every thread's
 *      stage writes before thread 0's arrival (CTA-scope
 *      synchronization), and release is cumulative, so (2) publishes the
 *      whole block's writes, not only thread 0's.
 *   2. atom.add.acq_rel.gpu: the arrival.  Each block's release RMW heads
 *      a release sequence; the later arrivals are RMWs on the same word,
 *      so a read of the final total is after every block's release in
 *      observation order ("precedes ... through a chain of atomic
 *      operations").  The last arriver's RMW reads total - 1 and, being
 *      an acquire too, synchronizes with every earlier arrival.
 *   3. the polls are ld.acquire.gpu: the one that reads the total
 *      synchronizes with every block's release (2), so the next stage's
 *      loads see every block's writes of the previous stages.  Measured
 *      on the H100 (frame_bench, one more stencil stage at 32K on 132
 *      blocks, two runs each): 1.06 / 1.39 us with acquire polls, 1.69 /
 *      1.59 us with relaxed polls and a fence.acq_rel.gpu after them (a
 *      MEMBAR.GPU, which waits for more than this one word).
 *   4. __syncthreads after: thread 0's acquire is cumulative to the rest
 *      of the block through bar.sync.
 * Polling: the first GG_FRAME_SPIN_FAST polls go back to back (a
 * barrier that completes within a few L2 round trips is not slowed);
 * later ones sleep GG_FRAME_BACKOFF_NS between tries, so that blocks that
 * finished a long stage early do not keep the counter's L2 slice busy
 * while the others still arrive there.  Every GG_FRAME_ABORT_EVERY polls
 * the waiter looks at the host's abort line.
 * want: the total this block waits for.  At frame start the count holds
 * whole barriers plus at most gridDim.x - 1 arrivals of this frame's
 * first barrier (a fast block may arrive before a slow one starts the
 * frame; that barrier cannot complete without the slow one), so rounding
 * down to a multiple of gridDim.x gives the barriers done so far.
 * One grid: __syncthreads only.
 */
#ifndef GG_FRAME_HELPERS
#define GG_FRAME_HELPERS
/* the workspace's words: GG_FRAME_COUNT_OFF, GG_FRAME_WS_HEAD (gg_abi.h) */
#define GG_FRAME_ABORT_EVERY 4095u /* polls between looks at the host's abort line */
#define GG_FRAME_SPIN_FAST 64u     /* back-to-back polls before backing off */
#define GG_FRAME_BACKOFF_NS 64u    /* sleep between later polls */

struct gg_frame_bar {
  unsigned long long want; /* thread 0: the count the next barrier completes */
};


/* Thread 0 polls word w with acquire loads until it reaches want (see
 * (3)); false when the host aborted the session meanwhile. */
GG_INLINE bool gg_fb_wait(const unsigned long long *w, unsigned long long want, const char *mbox)
{
  for (unsigned spins = 1; gg_load_acquire_gpu(w) < want; ++spins) {
    if (spins > GG_FRAME_SPIN_FAST) __nanosleep(GG_FRAME_BACKOFF_NS);
    if ((spins & GG_FRAME_ABORT_EVERY) == 0 && gg_host_aborted(mbox))
      return false;
  }
  return true;
}

/* An exchange's wait (common/allreduce.cuh, gather.cuh, alltoall.cuh,
 * halo.cuh), by any thread, for what GPU `peer` sends: poll until
 * ready() holds, or set *gave_up when the host aborted the session
 * meanwhile (or had already: *gave_up true polls nothing).  Each look at
 * the abort line also marks the peer as waited for in the mailbox's
 * status line (GG_MBOX_WAITING_OFF, host memory: one byte store, only in
 * a wait already ~0.3 ms long), cleared when it came, so a host whose
 * frame timed out names the rank.  Several threads may wait for one
 * peer: one that clears the byte while another still waits leaves it
 * clear until that one's next look. */
GG_INLINE void gg_xchg_waiting(const char *mbox, int peer, unsigned char on)
{
  *(volatile unsigned char *)(const_cast<char *>(mbox) + GG_MBOX_WAITING_OFF + peer) = on;
}
template <class F> GG_INLINE void gg_xchg_wait(F ready, int peer, const char *mbox, bool *gave_up)
{
  bool marked = false;
  for (unsigned spins = 1; !*gave_up && !ready(); ++spins) {
    if (spins > GG_FRAME_SPIN_FAST) __nanosleep(GG_FRAME_BACKOFF_NS);
    if ((spins & GG_FRAME_ABORT_EVERY) == 0) {
      gg_xchg_waiting(mbox, peer, 1);
      marked = true;
      if (gg_host_aborted(mbox)) *gave_up = true;
    }
  }
  if (marked && !*gave_up)
    gg_xchg_waiting(mbox, peer, 0);
}

GG_INLINE void gg_frame_bar_begin(gg_frame_bar &b, char *ws)
{
  b.want = 0;
  if (threadIdx.x == 0 && gridDim.x > 1) {
    const unsigned long long c = gg_load_relaxed_gpu((const unsigned long long *)(ws + GG_FRAME_COUNT_OFF));
    b.want = c - c % gridDim.x;
  }
}

/* Every thread of every block calls it; false when the host aborted the
 * session while this block waited (the frame then stops). */
GG_INLINE bool gg_frame_barrier(gg_frame_bar &b, char *ws, const char *mbox)
{
  __shared__ unsigned gg_fb_ok;
  __syncthreads(); /* (1) */
  if (gridDim.x == 1)
    return true;
  if (threadIdx.x == 0) {
    unsigned long long *count = (unsigned long long *)(ws + GG_FRAME_COUNT_OFF);
    const unsigned long long want = b.want += gridDim.x;
    /* (2); the last arriver polls nothing */
    const unsigned ok = gg_ticket_take(count) + 1 == want || gg_fb_wait(count, want, mbox); /* (3) */
    gg_fb_ok = ok;
  }
  __syncthreads(); /* (4) */
  return gg_fb_ok != 0;
}

/* ---- neighbour waits (CUDA) ---------------------------------------------
 * A stage whose dependencies stay between neighbouring (pseudo-)blocks
 * (gen/frame_deps.c: its views are touched at the thread's own index or read
 * within a declared halo no larger than a block's chunk) waits only until
 * (pseudo-)blocks b - 1 and b + 1 (mod nblocks) have finished every
 * earlier stage of the frame.  Each (pseudo-)block has a progress word in
 * the frame's workspace, after the head, on its own line (the plan's
 * offset and stride, gen/frame.h): the number of neighbour waits it has
 * reached, monotone, never reset.  Every (pseudo-)block passes the same
 * waits in a frame and frames never overlap (persistent.cuh starts frame
 * f + 1 only after every block's end of frame f), so at frame start the
 * words are all equal: thread 0 reads its own (only it writes it) and
 * counts from there.
 * Per wait, the grid barrier's reasoning with two words instead of one:
 *   1. gg_sync: bar.sync orders every thread's accesses of the earlier
 *      stages before thread 0's store (CTA-scope synchronization; release
 *      is cumulative), reads included: a neighbour that writes what this
 *      block read (WAR) waits for the same store.
 *   2. st.release.gpu of its new count.
 *   3. both neighbours' words read with ld.acquire.gpu (both loads in
 *      flight), then, for one short of the count, acquire polls until it
 *      reaches it (a neighbour may be further on: it has done more).  An
 *      acquire load that reads a neighbour's release store (2), or a later
 *      one of its, synchronizes with it.  Cumulativity carries order
 *      along: a neighbour's count says it had seen its own neighbours'.
 *      Measured on the H100 (frame_bench, one more 3-point stencil stage
 *      at 32K on 132 blocks): 1.31-1.44 us with acquire loads, 1.55-1.64
 *      us with relaxed polls and a fence.acq_rel.gpu (a MEMBAR, paid on
 *      every wait even when the neighbours were done).
 *   4. gg_sync: thread 0's acquire reaches the rest of the (pseudo-)block.
 * Polls back off and look at the host's abort line as the grid barrier's
 * do (gg_fb_wait), so a hung neighbour ends in the session's timeout.
 * One (pseudo-)block is its own neighbour: gg_sync alone.  Pseudo-blocks
 * of one hardware block poll each other's words like any other: their
 * named barriers let each run on while its neighbour's thread 0 spins.
 */
struct gg_fn_progress {
  unsigned long long done; /* thread 0: this (pseudo-)block's count */
  char *words;             /* the progress words */
  unsigned stride;         /* bytes between two blocks' words */
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

/* Every thread of the (pseudo-)block calls it; false when the host
 * aborted the session while it waited (the frame then stops). */
GG_INLINE bool gg_fn_wait_neighbours(gg_fn_progress &n, const gg_grid &g, const char *mbox)
{
  __shared__ unsigned gg_fn_ok[GG_GROUPS_MAX + 1]; /* per pseudo-block: its named barrier id */
  gg_sync(g); /* (1) */
  if (g.nblocks == 1)
    return true;
  if (g.thread == 0) {
    const unsigned long long want = ++n.done;
    gg_store_release_gpu(gg_fn_word(n, g.block), want); /* (2) */
    const unsigned left = g.block ? g.block - 1 : g.nblocks - 1;
    const unsigned right = g.block + 1 < g.nblocks ? g.block + 1 : 0;
    const unsigned long long *l = gg_fn_word(n, left), *r = gg_fn_word(n, right);
    /* both words read at once first ('&': both loads in flight, one L2
       round trip when the neighbours are already done), then each waited for */
    const bool ready = (gg_load_acquire_gpu(l) >= want) & (gg_load_acquire_gpu(r) >= want);
    const unsigned ok = ready || (gg_fb_wait(l, want, mbox) && gg_fb_wait(r, want, mbox)); /* (3) */
    gg_fn_ok[g.bar_id] = ok;
  }
  gg_sync(g); /* (4) */
  return gg_fn_ok[g.bar_id] != 0;
}
#endif /* GG_FRAME_HELPERS */
