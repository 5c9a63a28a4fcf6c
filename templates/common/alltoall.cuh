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
 * flagged with the run (gg_ll_store, the prelude; two side by side in one
 * 16-byte store where they can), so a thread that reads its element with
 * every flag at the run has it.  The block's barrier between the sends
 * and the receives puts every read of the view before any write to it.
 * A pseudo-block sends ALL its chunks before it waits for any, having
 * first waited for every acknowledgement those sends need at once
 * (gg_xchg_acks); its threads then load GG_XCHG_AHEAD elements before
 * they poll any (gg_ll_recv).  Chunk by chunk and element by element,
 * every wait was a round trip of its own: on 2 H200s (xchg_bench,
 * 2026-11-29) the 2 MiB corner turn on ONE block went from 1495 to 874
 * us.  On every SM it stayed where it was, ~13 us on the GPU (2 GPUs)
 * and ~18 (4 GPUs): not the waits; the flagged words double the bytes
 * (2 MiB over NVLink for 1 MiB of data).
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
  if (g.block >= gg_chunks)
    return true;
  const long long gg_mine = (gg_chunks - g.block + g.nblocks - 1) / g.nblocks; /* chunks */
  const unsigned long long k = *(volatile unsigned long long *)((unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + g.block) + 1;
  const unsigned flag = (unsigned)k;
  gg_ll *const buf = (gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + (k & 1ull) * gg_count;
  /* the acks of run k - 2 of every chunk this block's chunks go into:
     chunk c's elements of GPU q's block land at a run of positions there
     that spans at most 2 chunks, so 2 words a chunk and GPU */
  gg_xchg_acks(g, gg_mine * 2 * gg_gpus, k,
               [&](long long i) -> const unsigned long long * {
                 const long long c = g.block + i / (2 * gg_gpus) * g.nblocks;
                 const int q = (int)(i / 2 % gg_gpus);
                 const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
                 const long long lo = at > q * gg_block ? at : q * gg_block;
                 const long long hi = end < (q + 1) * gg_block ? end : (q + 1) * gg_block;
                 if (q == gg_me || lo >= hi)
                   return nullptr;
                 const long long d = (gg_me * gg_block + lo - q * gg_block) / gg_per + i % 2;
                 if (d > (gg_me * gg_block + hi - 1 - q * gg_block) / gg_per)
                   return nullptr;
                 return acks + d * gg_gpus + q;
               },
               [&](long long i) { return (int)(i / 2 % gg_gpus); }, gg_mbox, &gave_up);
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* send every chunk */
    const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
    int to_q = -1; /* the peer whose buffer `to` maps (a thread's elements mostly share one) */
    gg_ll *to = nullptr;
    /* element j to its place in its GPU's buffer; false: j is this GPU's */
    auto place = [&](long long j, long long *pos) {
      const int q = (int)(j / gg_block);
      if (q == gg_me)
        return false;
      *pos = gg_me * gg_block + (j - q * gg_block);
      if (q != to_q) {
        to = (gg_ll *)nvshmem_ptr(buf, q);
        to_q = q;
        if (!to)
          __trap(); /* not an NVLink peer: see above */
      }
      return true;
    };
    /* two elements a thread: where both go to one GPU side by side, on a
       16-byte boundary there, one 16-byte store */
    for (long long j = at + 2 * g.thread; j < end; j += 2 * g.nthreads) {
      long long pos = 0, pos1 = 0;
      const bool mine0 = !place(j, &pos);
      if (!mine0 && j + 1 < end && (j + 1) / gg_block == j / gg_block &&
          ((unsigned long long)(to + pos) & 15u) == 0) {
        gg_ll_store2(to + pos, gg_view[j], gg_view[j + 1], flag);
        continue;
      }
      if (!mine0)
        gg_ll_store(to + pos, gg_view[j], flag);
      if (j + 1 < end && place(j + 1, &pos1))
        gg_ll_store(to + pos1, gg_view[j + 1], flag);
    }
  }
  gg_sync(g); /* every thread's reads of the view above before any write below */
  for (long long c = g.block; c < gg_chunks; c += g.nblocks) { /* then receive them */
    const long long at = c * gg_per, end = gg_count - at < gg_per ? gg_count : at + gg_per;
    gg_ll_recv<gg_t>(at + g.thread, end, g.nthreads, flag,
                     [&](long long j) { return j / gg_block == gg_me ? nullptr : buf + j; },
                     [&](long long j) { return (int)(j / gg_block); },
                     [&](long long j, gg_t v) { gg_view[j] = v; }, gg_mbox, &gave_up);
    if (gg_sync_or(g, gave_up))
      return false;
    if (g.thread == 0) { /* the chunk is read: tell the GPUs that sent into it */
      *((unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c) = k;
      for (int q = 0; q < gg_gpus; ++q)
        if (q != gg_me && q * gg_block < end && (q + 1) * gg_block > at)
          nvshmem_uint64_p((uint64_t *)(acks + c * gg_gpus + gg_me), k, q);
    }
  }
  return true;
}
