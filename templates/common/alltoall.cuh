/* An alltoall of view {{VIEW}}, {{XCHG_COUNT}} x {{XCHG_T}}, across the frame's {{XCHG_GPUS}} GPUs:
 * one process (NVSHMEM PE) each, every one running this frame.  The view
 * is N blocks of {{XCHG_BLOCK}} elements (equal runs of its outer index); block q
 * of GPU p becomes block p of GPU q, and each GPU's own block p stays: a
 * corner turn, when a transpose follows.
 *
 * The view is cut in {{XCHG_CHUNKS}} chunk(s) of at most GG_XCHG_CHUNK_BYTES, chunk c
 * a pseudo-block's on every GPU, with no wait on any other block.  Each
 * thread sends the elements of its chunks that belong to other GPUs and
 * then receives the same elements' places: element j of block q goes to
 * GPU q at position p B + (j - q B) of its buffer (B: the block), and
 * what GPU q sends for this GPU's j lands at j here.  Elements travel
 * flagged with the run (gg_ll_store, the prelude), so a thread that reads
 * its element with every flag at the run has it; it reads its own
 * element's value before it writes what came in its place.
 * A pseudo-block sends ALL its chunks before it waits for any: the peers'
 * pseudo-blocks do the same, so a block with many chunks (few blocks, a
 * large view) waits for the crossing once, not once per chunk.  On every
 * SM (~4 chunks a block for xchg_bench's 2 MiB corner turn) it changed
 * nothing measurable: 17.10 against 17.18 us p50 on 2 H200s (2026-11-29);
 * there the waits are not what costs, most likely the bytes are (flagged
 * words: 2 MiB over NVLink for 1 MiB of data).
 *
 * gg_sym is this stage's area of the symmetric workspace (gg_abi.h and
 * exchange_plan.c: a runs word per chunk, two buffers of the view with
 * flags, then the acknowledgement words acks[c N + q]).  Run k uses
 * buffer k & 1 (every chunk runs once a frame, so the runs words of all
 * chunks agree).  A GPU writes GPU q's buffer b at run k >= 3 only after
 * q acknowledged run k - 2 of the chunk it writes into there, as
 * broadcast and allgather do (common/gather.cuh); after its reads, a
 * pseudo-block's thread 0 acknowledges its chunk to every GPU that sent
 * into it.
 *
 * Every peer must be one NVSHMEM maps into this GPU's address space
 * (nvshmem_ptr: NVLink); one it cannot map (another node) stops the
 * kernel with a trap, which the session reports as a fault: an alltoall
 * across nodes is not built.  Every wait is bounded as the frame's
 * barriers are: it looks at the host's abort line now and then, so a
 * peer that died ends in the host's wait timeout and terminate (false:
 * the frame stops), never in a hang. */
typedef {{XCHG_T}} gg_t;
typedef gg_ll_of<gg_t> gg_ll;
static_assert(sizeof(gg_ll) == GG_XCHG_LL_FACTOR * sizeof(gg_t), "gg_abi.h: a slot's bytes");

__device__ bool gg_body(const {{ARGS_T}} &args, const gg_grid &g, char *gg_sym, const char *gg_mbox)
{
  const int gg_gpus = {{XCHG_GPUS}};
  const long long gg_count = {{XCHG_COUNT}}, gg_block = {{XCHG_BLOCK}};
  const long long gg_chunks = {{XCHG_CHUNKS}}, gg_per = {{XCHG_CHUNK_ITEMS}};
  gg_t *const gg_view = args.{{VIEW}};
  const int gg_me = nvshmem_my_pe();
  unsigned long long *const acks = (unsigned long long *)(gg_sym + {{XCHG_ACKS_OFF}});
  bool gave_up = false;
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* send every chunk */
    const unsigned long long k = *(volatile unsigned long long *)((unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c) + 1;
    const unsigned flag = (unsigned)k;
    gg_ll *const buf = (gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_count;
    const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
    int to_q = -1; /* the peer whose buffer `to` maps (a thread's elements mostly share one) */
    gg_ll *to = nullptr;
    const unsigned long long *acked = nullptr; /* the ack last seen at k - 2 */
    for (long long j = at + g.thread; j < end; j += g.nthreads) {
      const int q = (int)(j / gg_block);
      if (q == gg_me)
        continue;
      const long long pos = gg_me * gg_block + (j - q * gg_block);
      const unsigned long long *const ack = acks + (pos / gg_per) * gg_gpus + q;
      if (ack != acked)
        gg_xchg_wait([&] { return k <= 2 || gg_load_acquire_sys(ack) >= k - 2; }, q, gg_mbox,
                     &gave_up);
      acked = ack;
      if (q != to_q) {
        to = (gg_ll *)nvshmem_ptr(buf, q);
        to_q = q;
        if (!to)
          __trap(); /* not an NVLink peer: see above */
      }
      gg_ll_store(to + pos, gg_view[j], flag);
    }
  }
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* then receive them */
    unsigned long long *const runs = (unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c;
    const unsigned long long k = *(volatile unsigned long long *)runs + 1;
    const unsigned flag = (unsigned)k;
    const gg_ll *const buf = (const gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_count;
    const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
    for (long long j = at + g.thread; j < end; j += g.nthreads) {
      if (j / gg_block == gg_me)
        continue;
      gg_t v;
      gg_xchg_wait([&] { return gg_ll_load(buf + j, flag, &v); }, (int)(j / gg_block), gg_mbox,
                   &gave_up);
      gg_view[j] = v;
    }
    if (gg_sync_or(g, gave_up))
      return false;
    if (g.thread == 0) { /* the chunk is read: tell the GPUs that sent into it */
      *runs = k;
      for (int q = 0; q < gg_gpus; ++q)
        if (q != gg_me && q * gg_block < end && (q + 1) * gg_block > at)
          nvshmem_uint64_p((uint64_t *)(acks + c * gg_gpus + gg_me), k, q);
    }
  }
  return true;
}
