/* An allreduce ({{XCHG_OP}}) of view {{VIEW}}, {{XCHG_COUNT}} x {{XCHG_T}}, across the
 * frame's {{XCHG_GPUS}} GPUs: one process (NVSHMEM PE) each, every one running this
 * frame.  After it every GPU's view holds the {{XCHG_OP}} of all the GPUs' views,
 * element by element, the same bits on every GPU.
 *
 * Pseudo-block 0 does it all; the others return at once and wait at the
 * grid barrier after the stage (the frame's schedule puts one before any
 * later stage that touches the view).  One pseudo-block because the view
 * is small (GG_XCHG_ITEMS_MAX elements at most): the exchange is a few
 * puts per peer and one wait, latency-bound (a few us over NVLink);
 * spreading it over blocks would add a grid barrier before the combine.
 *
 * gg_sym is this stage's area of the symmetric workspace (gg_abi.h: the
 * signal word, the runs word, two buffers of N slots of the view).  Run k
 * of the stage (k = 1, 2, ...: the runs word, which no peer reads) uses
 * buffer k & 1 on every GPU:
 *   1. copy the view into this GPU's own slot [me] of buffer b.  The put's
 *      source is then memory nothing writes before run k + 2, so step 4
 *      may overwrite the view before the non-blocking put is known to be
 *      done (a put's source must stay unchanged until then);
 *   2. the warps put that slot into slot [me] of buffer b of every peer,
 *      in {{XCHG_CHUNKS}} chunk(s) of at most GG_XCHG_CHUNK_BYTES, each put
 *      with a signal: NVSHMEM adds 1 to the peer's signal word after the
 *      chunk has landed there (the warp form: pseudo-blocks share a
 *      hardware block, so a block-wide call would wait for threads that
 *      never make it; several warps: one warp alone moved 128 KiB in ~90 us);
 *   3. thread 0 waits until its own signal word reaches k (N - 1) C (C
 *      chunks): every
 *      peer's run-k slot has landed here (an acquire at system scope
 *      pairs with the peers' signal updates; the barrier after it passes
 *      that on to the pseudo-block's other threads);
 *   4. every thread combines slots 0, 1, ..., N - 1 in that order into
 *      the view: the same operations in the same order on every GPU, so
 *      the same bits.
 * Two buffers are enough: a GPU writes a peer's buffer b again at run
 * k + 2, after its own step 3 of run k + 1 saw that peer's run-(k + 1)
 * signal, which the peer sent after its step 4 of run k, its last read of
 * buffer b for run k.
 *
 * The wait is bounded as the frame's barriers are (gg_fb_wait): it looks
 * at the host's abort line now and then, so a peer that died ends in the
 * host's wait timeout and terminate (false: the frame stops), never in a
 * hang. */
__device__ bool gg_body(const {{ARGS_T}} &args, const gg_grid &g, char *gg_sym, const char *gg_mbox)
{
  __shared__ unsigned gg_ok;
  if (g.block != 0)
    return true;
  typedef {{XCHG_T}} gg_t;
  const int gg_gpus = {{XCHG_GPUS}};
  const long long gg_count = {{XCHG_COUNT}};
  gg_t *const gg_view = args.{{VIEW}};
  unsigned long long *const gg_signal = (unsigned long long *)(gg_sym + GG_XCHG_SIGNAL_OFF);
  unsigned long long *const gg_runs = (unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF);
  const unsigned long long gg_k = *(volatile unsigned long long *)gg_runs + 1;
  const int gg_me = nvshmem_my_pe();
  gg_t *const gg_buf = (gg_t *)(gg_sym + GG_XCHG_BUFS_OFF) + (gg_k & 1ull) * gg_gpus * gg_count;
  gg_t *const gg_mine = gg_buf + gg_me * gg_count;
  for (long long i = g.thread; i < gg_count; i += g.nthreads) /* 1 */
    gg_mine[i] = gg_view[i];
  gg_sync(g);
  const long long gg_chunks = {{XCHG_CHUNKS}}, gg_per = {{XCHG_CHUNK_ITEMS}};
  for (long long c = g.thread / 32; c < gg_chunks; c += g.nthreads / 32) { /* 2: by warps */
    const long long at = c * gg_per, n = gg_count - at < gg_per ? gg_count - at : gg_per;
    for (int p = 0; p < gg_gpus; ++p)
      if (p != gg_me)
        nvshmemx_putmem_signal_nbi_warp(gg_mine + at, gg_mine + at, n * sizeof(gg_t), gg_signal,
                                        1ull, NVSHMEM_SIGNAL_ADD, p);
  }
  if (g.thread == 0) { /* 3 */
    *gg_runs = gg_k;
    const unsigned long long want = gg_k * (unsigned long long)(gg_gpus - 1) * gg_chunks;
    unsigned ok = 1;
    for (unsigned spins = 1; ok && gg_load_acquire_sys(gg_signal) < want; ++spins) {
      if (spins > GG_FRAME_SPIN_FAST) gg_nanosleep(GG_FRAME_BACKOFF_NS);
      if ((spins & GG_FRAME_ABORT_EVERY) == 0 && gg_host_aborted(gg_mbox)) ok = 0;
    }
    gg_ok = ok;
  }
  gg_sync(g);
  if (!gg_ok)
    return false;
  for (long long i = g.thread; i < gg_count; i += g.nthreads) { /* 4 */
    gg_t a = gg_buf[i];
    for (int p = 1; p < gg_gpus; ++p) {
      const gg_t b = gg_buf[p * gg_count + i];
      a = {{XCHG_COMBINE}};
    }
    gg_view[i] = a;
  }
  return true;
}
