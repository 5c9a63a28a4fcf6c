/* A {{XCHG_KIND}} of view {{VIEW}}, {{XCHG_COUNT}} x {{XCHG_T}}, across the frame's
 * {{XCHG_GPUS}} GPUs: one process (NVSHMEM PE) each, every one running this frame.
 * GPU q owns elements gg_part_lo(q) .. gg_part_hi(q) - 1 of the view (a
 * broadcast's root owns them all; an allgather's GPU q its share of the
 * first index).  After the stage every GPU's view holds every element as
 * its owner had it.
 *
 * The view is cut in {{XCHG_CHUNKS}} chunk(s) of at most GG_XCHG_CHUNK_BYTES, and
 * chunk c belongs to pseudo-block c mod P on every GPU, which sends the
 * chunk's elements its GPU owns and receives the others, with no wait on
 * any other block.  Elements travel flagged with the run (gg_ll_store,
 * the prelude: each 4-byte word beside the run in one 8-byte word), so a
 * thread that reads its element with every flag at the run has it.
 *
 * gg_sym is this stage's area of the symmetric workspace (gg_abi.h and
 * exchange_plan.c: a runs word per chunk, two buffers of the view with
 * flags, then the acknowledgement words acks[c N + q]).  Run k of chunk c
 * (k = 1, 2, ...: its runs word, which no peer reads) uses buffer k & 1:
 *   1. the owner stores its elements of the chunk, flagged, straight into
 *      buffer b of every peer NVSHMEM maps into this GPU's address space
 *      (nvshmem_ptr: NVLink peers); for a peer it cannot map (another
 *      node) it stores them into its own buffer b first and warp 0 puts
 *      them from there after the block's barrier;
 *   2. every thread reads the elements of the chunk that other GPUs own
 *      from its own buffer b until their flags say k, into the view;
 *   3. after the pseudo-block's barrier, thread 0 tells each GPU that
 *      owns some of the chunk: acks[c N + me] = k on that GPU.
 * A pseudo-block with several chunks takes step 1 for all of them before
 * step 2 for any: the crossing is waited for once, not once per chunk.
 * Before step 1 of run k >= 3 the owner waits until every peer has
 * acknowledged run k - 2 of the chunk, the last run that used buffer b:
 * a GPU that only sends (a broadcast's root) could otherwise run two
 * frames ahead of a slow peer and overwrite what it has not read.  The
 * acknowledgement is rarely waited for: it left a frame earlier.
 *
 * Every wait is bounded as the frame's barriers are (gg_xchg_wait): it
 * looks at the host's abort line now and then, so a peer that died ends
 * in the host's wait timeout and terminate (false: the frame stops),
 * never in a hang; the pseudo-block gives up together (gg_sync_or). */
typedef {{XCHG_T}} gg_t;
typedef gg_ll_of<gg_t> gg_ll;
static_assert(sizeof(gg_ll) == GG_XCHG_LL_FACTOR * sizeof(gg_t), "gg_abi.h: a slot's bytes");

GG_INLINE long long gg_part_lo(int q) { return {{XCHG_PART_LO}}; }
GG_INLINE long long gg_part_hi(int q) { return {{XCHG_PART_HI}}; }
GG_INLINE int gg_owner(long long j) { return {{XCHG_OWNER}}; } /* the GPU that owns element j */

__device__ bool gg_body(const {{ARGS_T}} &args, const gg_grid &g, char *gg_sym, const char *gg_mbox)
{
  const int gg_gpus = {{XCHG_GPUS}};
  const long long gg_count = {{XCHG_COUNT}};
  const long long gg_chunks = {{XCHG_CHUNKS}}, gg_per = {{XCHG_CHUNK_ITEMS}};
  gg_t *const gg_view = args.{{VIEW}};
  const int gg_me = nvshmem_my_pe();
  const long long gg_mlo = gg_part_lo(gg_me), gg_mhi = gg_part_hi(gg_me);
  unsigned long long *const acks = (unsigned long long *)(gg_sym + {{XCHG_ACKS_OFF}});
  bool gave_up = false;
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* 1, every chunk */
    const unsigned long long k = *(volatile unsigned long long *)((unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c) + 1;
    const unsigned flag = (unsigned)k;
    gg_ll *const buf = (gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_count;
    const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
    /* this GPU's elements of the chunk: [lo, hi), maybe none */
    const long long lo = gg_mlo > at ? gg_mlo : at, hi = gg_mhi < end ? gg_mhi : end;
    bool staged = false;
    for (int p = 0; p < gg_gpus && lo < hi; ++p) {
      if (p == gg_me)
        continue;
      const unsigned long long *const ack = acks + c * gg_gpus + p;
      gg_xchg_wait([&] { return k <= 2 || gg_load_acquire_sys(ack) >= k - 2; }, p, gg_mbox,
                   &gave_up);
      gg_ll *const to = (gg_ll *)nvshmem_ptr(buf + lo, p);
      if (to || !staged)
        for (long long j = lo + g.thread; j < hi; j += g.nthreads)
          gg_ll_store(to ? to + (j - lo) : buf + j, gg_view[j], flag);
      staged = staged || !to;
    }
    if (staged) {
      gg_sync(g);
      if (g.thread < 32)
        for (int p = 0; p < gg_gpus; ++p)
          if (p != gg_me && !nvshmem_ptr(buf + lo, p))
            nvshmemx_putmem_nbi_warp(buf + lo, buf + lo, (hi - lo) * sizeof(gg_ll), p);
    }
  }
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* 2 and 3, every chunk */
    unsigned long long *const runs = (unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c;
    const unsigned long long k = *(volatile unsigned long long *)runs + 1;
    const unsigned flag = (unsigned)k;
    const gg_ll *const buf = (const gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_count;
    const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
    for (long long j = at + g.thread; j < end; j += g.nthreads) {
      if (j >= gg_mlo && j < gg_mhi)
        continue;
      gg_t v;
      gg_xchg_wait([&] { return gg_ll_load(buf + j, flag, &v); }, gg_owner(j), gg_mbox, &gave_up);
      gg_view[j] = v;
    }
    if (gg_sync_or(g, gave_up))
      return false;
    if (g.thread == 0) {
      *runs = k;
      for (int q = 0; q < gg_gpus; ++q)
        if (q != gg_me && gg_part_lo(q) < end && gg_part_hi(q) > at &&
            gg_part_lo(q) < gg_part_hi(q))
          nvshmem_uint64_p((uint64_t *)(acks + c * gg_gpus + gg_me), k, q);
    }
  }
  return true;
}
