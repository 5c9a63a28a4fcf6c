/* An allreduce ({{XCHG_OP}}) of view {{VIEW}}, {{XCHG_COUNT}} x {{XCHG_T}}, across the
 * frame's {{XCHG_GPUS}} GPUs: one process (NVSHMEM PE) each, every one running this
 * frame.  After it every GPU's view holds the {{XCHG_OP}} of all the GPUs' views,
 * element by element, the same bits on every GPU.
 *
 * The view is cut in {{XCHG_CHUNKS}} chunk(s) of at most GG_XCHG_CHUNK_BYTES, and
 * chunk c belongs to pseudo-block c mod P on every GPU: that pseudo-block
 * sends it, waits for the peers' chunk c and combines it, with no wait on
 * any other block.  A 128 KiB view leaves and is combined through 32 SMs,
 * not one.  A pseudo-block with several chunks sends them all before it
 * waits for any (1 for every chunk, then 2): the crossing is waited for
 * once, not once per chunk.  The pseudo-blocks without a chunk go on to
 * the grid barrier after the stage (the frame's schedule puts one before
 * any later stage that touches the view).
 *
 * Each 4-byte word travels in an 8-byte word with a flag, the run k, in
 * its high half (NCCL's LL protocol): an 8-byte access is single-copy
 * atomic, so a thread that reads its element's words with their flags at
 * k has the element.  No fence and no signal word: on the H100 a release
 * at system scope cost ~2 us a way where relaxed flags cost ~0.7.  On 2
 * H200s (xchg_bench, p50 of a frame, 1K / 32K floats): 8.9 / 9.8 us; a
 * fence and a signal per chunk 10.4 / 11.6; puts with a signal from one
 * pseudo-block's warps 11.3 / 74.6.
 *
 * gg_sym is this stage's area of the symmetric workspace (gg_abi.h: a
 * runs word per chunk, two buffers of N slots of the view with flags).
 * Run k of chunk c (k = 1, 2, ...: its runs word, which no peer reads)
 * uses buffer k & 1 on every GPU:
 *   1. each thread stores its elements of the chunk, flagged, straight
 *      into slot [me] of buffer b of every peer that NVSHMEM maps into
 *      this GPU's address space (nvshmem_ptr: NVLink peers); for a peer
 *      it cannot map (another node) they go into this GPU's own slot [me]
 *      first, and warp 0 puts the chunk from there after the block's
 *      barrier.  Nothing writes that slot before run k + 2, by when the
 *      put has landed (the peer has combined it);
 *   2. each thread reads its elements from every peer's slot until their
 *      flags say k, and combines slots 0, 1, ..., N - 1 in that order into
 *      the view (this GPU's own values read from the view): the same
 *      operations in the same order on every GPU, so the same bits.
 * Two buffers are enough: a GPU writes a peer's chunk c of buffer b again
 * at run k + 2, after it read that peer's run-(k + 1) chunk c, which the
 * peer stored after the grid barrier that followed its reads of buffer b
 * for run k.  A flag is never stale by accident: the slot last held run
 * k - 2's flag, or the zeros it was allocated with, and k >= 1.
 *
 * The waits are bounded as the frame's barriers are (gg_xchg_wait): they
 * look at the host's abort line now and then, so a peer that died ends in
 * the host's wait timeout and terminate (false: the frame stops), never
 * in a hang. */
typedef {{XCHG_T}} gg_t;
typedef gg_ll_of<gg_t> gg_ll;
static_assert(sizeof(gg_ll) == GG_XCHG_LL_FACTOR * sizeof(gg_t), "gg_abi.h: a slot's bytes");

__device__ bool gg_body(const {{ARGS_T}} &args, const gg_grid &g, char *gg_sym, const char *gg_mbox)
{
  const int gg_gpus = {{XCHG_GPUS}};
  const long long gg_count = {{XCHG_COUNT}};
  const long long gg_chunks = {{XCHG_CHUNKS}}, gg_per = {{XCHG_CHUNK_ITEMS}};
  gg_t *const gg_view = args.{{VIEW}};
  const int gg_me = nvshmem_my_pe();
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* 1, every chunk */
    const unsigned long long k = *(volatile unsigned long long *)((unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c) + 1;
    const unsigned flag = (unsigned)k;
    gg_ll *const buf = (gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_gpus * gg_count;
    const long long at = c * gg_per, n = gg_count - at < gg_per ? gg_count - at : gg_per;
    gg_ll *const mine = buf + gg_me * gg_count + at;
    bool staged = false;
    for (int p = 0; p < gg_gpus; ++p) {
      if (p == gg_me)
        continue;
      gg_ll *const to = (gg_ll *)nvshmem_ptr(mine, p);
      if (to || !staged)
        for (long long i = g.thread; i < n; i += g.nthreads)
          gg_ll_store((to ? to : mine) + i, gg_view[at + i], flag);
      staged = staged || !to;
    }
    if (staged) {
      gg_sync(g);
      if (g.thread < 32)
        for (int p = 0; p < gg_gpus; ++p)
          if (p != gg_me && !nvshmem_ptr(mine, p))
            nvshmemx_putmem_nbi_warp(mine, mine, n * sizeof(gg_ll), p);
    }
  }
  bool gave_up = false;
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* 2, every chunk */
    unsigned long long *const runs = (unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c;
    const unsigned long long k = *(volatile unsigned long long *)runs + 1;
    const unsigned flag = (unsigned)k;
    const gg_ll *const buf = (const gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_gpus * gg_count;
    const long long at = c * gg_per, n = gg_count - at < gg_per ? gg_count - at : gg_per;
    for (long long i = g.thread; i < n; i += g.nthreads) {
      const long long j = at + i;
      gg_t a = gg_view[j];
      for (int p = 0; p < gg_gpus; ++p) {
        gg_t b = gg_view[j];
        const gg_ll *const from = buf + p * gg_count + j;
        if (p != gg_me)
          gg_xchg_wait([&] { return gg_ll_load(from, flag, &b); }, p, gg_mbox, &gave_up);
        a = p == 0 ? b : ({{XCHG_COMBINE}});
      }
      gg_view[j] = a;
    }
    /* every thread has read the runs word; and all give up together */
    if (gg_sync_or(g, gave_up))
      return false;
    if (g.thread == 0)
      *runs = k;
  }
  return true;
}
