/* A halo of view {{VIEW}} across the frame's {{XCHG_GPUS}} GPUs, {{XCHG_WIDTH}} row(s) each way:
 * one process (NVSHMEM PE) each, every one running this frame.  Each
 * GPU's view is its part of a larger array: its outer index has E =
 * {{XCHG_ROWS}} rows of {{XCHG_ROW_ITEMS}} element(s), the first w and the last w of them ghost
 * rows.  GPU q's rows E - 2w .. E - w - 1 become GPU q + 1's rows 0 .. w -
 * 1 (side 0, rightwards), its rows w .. 2w - 1 GPU q - 1's rows E - w ..
 * E - 1 (side 1, leftwards); with wrap GPU N - 1 and GPU 0 are
 * neighbours, without it GPU 0's first ghost rows and GPU N - 1's last
 * are left as they are.  A part of fewer than 3w rows (a run-time E:
 * gpugen refuses a constant one) sends zeros and writes no ghost row:
 * the rows it would send would be ghost rows of the other side, which
 * this stage writes while other threads read them.
 *
 * Each side's {{XCHG_COUNT}} element(s) are cut in {{XCHG_CHUNKS}} chunk(s) of at most
 * GG_XCHG_CHUNK_BYTES; chunk c of side s belongs to pseudo-block
 * (s x chunks + c) mod P on every GPU, which stores its edge rows' part
 * straight into the neighbour's receive slot (nvshmem_ptr: an NVLink
 * peer), each word flagged with the run (gg_ll_store, the prelude), then
 * reads the part its other neighbour sent into its ghost rows once every
 * flag says the run; with several chunks it stores all of them before
 * it reads any, so the crossing is waited for once, not once per chunk.
 * A neighbour NVSHMEM cannot map (another node) gets the chunk put from
 * this GPU's staging slot.
 *
 * gg_sym is this stage's area of the symmetric workspace (exchange_plan.c:
 * a runs word per chunk, then per run parity and side a receive slot and
 * a staging slot).  Run k (k = 1, 2, ...) uses parity k & 1.  No
 * acknowledgement is needed, because neighbours exchange both ways: GPU q
 * writes its right neighbour's side-0 slot of parity b again at run k + 2
 * only after its run k + 1 finished, which waited for that neighbour's
 * run-(k + 1) side-1 chunks; the neighbour stored those in its run k + 1,
 * after every read of its run k (the frame's barrier after this stage and
 * the host's handshake between frames).  The same holds leftwards.
 *
 * Every wait is bounded as the frame's barriers are (gg_xchg_wait): a
 * neighbour that died ends in the host's wait timeout and terminate, never
 * in a hang; the pseudo-block gives up together (gg_sync_or). */
typedef {{XCHG_T}} gg_t;
typedef gg_ll_of<gg_t> gg_ll;
static_assert(sizeof(gg_ll) == GG_XCHG_LL_FACTOR * sizeof(gg_t), "gg_abi.h: a slot's bytes");
/* the layout below - a runs word per chunk of each side, then 8 slots of
   a side's elements (2 parities x 2 sides x receive and staging) - inside
   the area the plan gave the stage ({{XCHG_AREA}} bytes) */
static_assert(2 * {{XCHG_CHUNKS}} <= GG_XCHG_CHUNKS_MAX &&
                  GG_XCHG_BUFS_OFF + 8ull * {{XCHG_COUNT}} * sizeof(gg_ll) <= {{XCHG_AREA}},
              "halo {{NAME}}: its symmetric layout is larger than the plan's area");

__device__ bool gg_body(const {{ARGS_T}} &args, const gg_grid &g, char *gg_sym, const char *gg_mbox)
{
  const int gg_gpus = {{XCHG_GPUS}};
  const long long gg_count = {{XCHG_COUNT}}; /* a side's elements: w rows */
  const long long gg_chunks = {{XCHG_CHUNKS}}, gg_per = {{XCHG_CHUNK_ITEMS}}; /* a side's */
  const long long gg_w = {{XCHG_WIDTH}}, gg_row = {{XCHG_ROW_ITEMS}}, gg_rows = {{XCHG_ROWS}};
  const long long gg_items = gg_rows * gg_row;
  const bool gg_fits = gg_rows >= 3 * gg_w; /* sent rows and ghost rows apart (above) */
  const bool gg_wrap = {{XCHG_WRAP}};
  gg_t *const gg_view = args.{{VIEW}};
  const int gg_me = nvshmem_my_pe();
  const int gg_right = gg_me + 1 < gg_gpus ? gg_me + 1 : gg_wrap ? 0 : -1;
  const int gg_left = gg_me > 0 ? gg_me - 1 : gg_wrap ? gg_gpus - 1 : -1;
  for (long long c = g.block; c < 2 * gg_chunks; c += g.nblocks) { /* send every chunk */
    const int side = c < gg_chunks ? 0 : 1;
    const unsigned long long k = *(volatile unsigned long long *)((unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c) + 1;
    gg_ll *const recv = (gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + ((k & 1ull) * 2 + side) * 2 * gg_count;
    gg_ll *const staged = recv + gg_count;
    const long long at = (c - side * gg_chunks) * gg_per;
    const long long n = gg_count - at < gg_per ? gg_count - at : gg_per;
    const int to = side == 0 ? gg_right : gg_left;
    /* where the leaving rows' chunk starts in the view */
    const long long src = (side == 0 ? gg_rows - 2 * gg_w : gg_w) * gg_row + at;
    if (to >= 0) {
      gg_ll *const peer = (gg_ll *)nvshmem_ptr(recv + at, to);
      gg_ll *const out = peer ? peer : staged + at;
      for (long long i = g.thread; i < n; i += g.nthreads) {
        const long long j = src + i;
        gg_ll_store(out + i, gg_fits && j >= 0 && j < gg_items ? gg_view[j] : gg_t(0), (unsigned)k);
      }
      if (!peer) {
        gg_sync(g);
        if (g.thread < 32)
          nvshmemx_putmem_nbi_warp(recv + at, staged + at, n * sizeof(gg_ll), to);
      }
    }
  }
  bool gave_up = false;
  for (long long c = g.block; c < 2 * gg_chunks; c += g.nblocks) { /* then receive them */
    const int side = c < gg_chunks ? 0 : 1;
    unsigned long long *const runs = (unsigned long long *)(gg_sym + GG_XCHG_RUNS_OFF) + c;
    const unsigned long long k = *(volatile unsigned long long *)runs + 1;
    const unsigned flag = (unsigned)k;
    const gg_ll *const recv = (const gg_ll *)(gg_sym + GG_XCHG_BUFS_OFF) + ((k & 1ull) * 2 + side) * 2 * gg_count;
    const long long at = (c - side * gg_chunks) * gg_per;
    const long long n = gg_count - at < gg_per ? gg_count - at : gg_per;
    const int from = side == 0 ? gg_left : gg_right;
    /* where the ghost rows' chunk starts in the view */
    const long long dst = (side == 0 ? 0 : gg_rows - gg_w) * gg_row + at;
    for (long long i = g.thread; from >= 0 && i < n; i += g.nthreads) {
      gg_t v;
      gg_xchg_wait([&] { return gg_ll_load(recv + at + i, flag, &v); }, from, gg_mbox, &gave_up);
      const long long j = dst + i;
      if (gg_fits && j >= 0 && j < gg_items)
        gg_view[j] = v;
    }
    /* every thread has read the runs word; and all give up together */
    if (gg_sync_or(g, gave_up))
      return false;
    if (g.thread == 0)
      *runs = k;
  }
  return true;
}
