/* scan {{NAME}} ({{INCLUSIVE}} = inclusive): one pass, decoupled look-back.
 *
 * The range is cut into tiles of nthreads x ITEMS elements, one tile per
 * block (a virtual grid with fewer blocks than tiles loops, tile by
 * tile).  A block scans its tile in shared memory, publishes the tile's
 * aggregate, then looks back over its predecessors - one warp, one
 * predecessor per lane - until it meets an inclusive prefix, and
 * publishes its own inclusive prefix.  Every published word carries the
 * launch's gg_seq and the tile's ring round: a word from an earlier
 * launch or an earlier round reads as "not yet", so the workspace is
 * never cleared.
 * Memory traffic: one read and one write of the data, like a copy.
 *
 * A tile's state is WORDS 64-bit words (plan: one for sums of 4 bytes
 * or fewer, two for 8-byte sums), each {tag << 2 | status (high half),
 * 32 bits of the value (low half)}.  One store per word publishes and no
 * fence is needed anywhere on the look-back path (a __threadfence is a
 * MEMBAR.SC.GPU that costs microseconds under full memory traffic, and
 * the look-back is the chain every tile waits on).
 *
 * Why two words are correct without a 128-bit atomic: the PTX memory
 * model (ISA 8.x, "Vector Data-types") relates scalar accesses of at most
 * 64 bits; a 16-byte access counts as two 8-byte ones in an unspecified
 * order, so a reader may see one word of a new publish and one of an old
 * one (CUB's 16-byte {status, value} word relies on the hardware's
 * 16-byte transactions instead; atom.exch.b128 would make the store
 * atomic but a poll would then need atom.cas.b128 as well).  Here each
 * naturally aligned 64-bit volatile access is single-copy atomic, every
 * word names its publish, and a tile publishes each status once per
 * launch and ring round: a reader that sees the same {tag, status} in
 * both words has both halves of the same value, and reads again
 * otherwise.  The value travels inside the words, so nothing else needs
 * ordering.  Two words move as one 16-byte access (gg_load2_volatile,
 * gg_store2_volatile: the same two atomic halves, one instruction and one
 * transaction): on the H100 that took 8-byte sums from 0.995-0.997x CUB
 * at 64M-256M to 1.015-1.019x. */
{{COMBINE_DEF}}

typedef {{ACC_T}} acc_t;
enum { ITEMS = {{SCAN_ITEMS}}, INCLUSIVE = {{INCLUSIVE}}, RING = {{SCAN_RING}} /* power of two */ };
enum { BLOCK = {{RBLOCK}} /* threads of a classic launch */ };
enum { WORDS = {{SCAN_WORDS}} /* 64-bit words per tile state: sizeof(acc_t) / 4, at least 1 */ };
enum { KEEP_ITEMS = {{SCAN_KEEP_ITEMS}} /* a thread's items in registers from step 2 to 5 */ };
enum { SLOT_WORDS = {{SCAN_SLOT_WORDS}} /* >= WORDS: words per look-back slot (the plan's) */ };
enum { PAD_EVERY = {{SCAN_PAD_EVERY}} /* tile elements per shared-memory pad element (pad()) */ };
enum { ST_AGGREGATE = 1, ST_INCLUSIVE = 2 };

/* One per tile in the workspace: tile t uses slot t % RING.  A word from
 * an earlier launch, or from the tile one ring earlier, has another tag
 * and reads as "not yet", so the workspace is never cleared and a slot is
 * never misread when the ring wraps. */
struct tile_state {
  unsigned long long word[SLOT_WORDS]; /* WORDS used; the rest spaces the slots out */
};

/* The tag: 30 bits of (seq, round).  The round is spread by an odd
 * constant so that rounds of one launch never share a tag; a stale word
 * misreads only if its launch was 2^30 launches of this kernel ago (with
 * the round) and nothing rewrote the slot since. */
GG_INLINE unsigned tag_of(unsigned seq, long long t)
{
  return (seq + (unsigned)(t / RING) * 0x9e3779b9u) << 2;
}

{{> common/scalar_value.cuh}}

/* Shared-memory index of tile element e: one pad element per PAD_EVERY
 * (the plan's: 128 bytes of elements), so that the threads reading their
 * ITEMS consecutive elements and a warp reading 32 consecutive ones both
 * hit different banks.  8-byte elements are served per half-warp (16
 * threads x 8 bytes cover the 32 banks): with a pad per 32 elements,
 * threads 2m and 2m + 1 of a half-warp hit the same bank pair. */
GG_INLINE unsigned pad(unsigned e) { return e + e / PAD_EVERY; }

/* The value as WORDS 32-bit pieces, the low half of each word (a value
 * of fewer than 4 bytes leaves the rest of its piece zero). */
union bits_of {
  unsigned u[WORDS];
  acc_t v;
};

GG_INLINE void publish(tile_state *st, long long t, unsigned seq, unsigned status, acc_t v)
{
  tile_state *s = &st[t & (RING - 1)];
  bits_of b;
  for (int w = 0; w < WORDS; ++w) b.u[w] = 0;
  b.v = v;
  const unsigned long long hi = (unsigned long long)(tag_of(seq, t) | status) << 32;
  if (WORDS == 2 && SLOT_WORDS % 2 == 0) { /* one 16-byte store, two atomic halves */
    gg_store2_volatile(s->word, hi | b.u[0], hi | b.u[WORDS - 1]);
    return;
  }
#pragma unroll
  for (int w = 0; w < WORDS; ++w) /* one 64-bit store each: tag, status and piece together */
    *(volatile unsigned long long *)&s->word[w] = hi | b.u[w];
}

/* Wait until tile p of this launch has published anything; its status,
 * and its value in *v. */
GG_INLINE unsigned wait_for(const tile_state *st, long long p, unsigned seq, acc_t *v)
{
  const tile_state *sp = &st[p & (RING - 1)];
  const unsigned want = tag_of(seq, p);
  unsigned long long w[WORDS];
  unsigned hi;
  bool same;
  do {
    if (WORDS == 2 && SLOT_WORDS % 2 == 0) {
      gg_load2_volatile(sp->word, w); /* one 16-byte load, two atomic halves */
    } else {
#pragma unroll
      for (int i = 0; i < WORDS; ++i) w[i] = *(volatile const unsigned long long *)&sp->word[i];
    }
    hi = (unsigned)(w[0] >> 32);
    same = true; /* every word from the same publish (see the top) */
#pragma unroll
    for (int i = 1; i < WORDS; ++i) same = same && (unsigned)(w[i] >> 32) == hi;
  } while ((hi & ~3u) != want || (hi & 3) == 0 || !same);
  bits_of b;
  b.v = identity();
#pragma unroll
  for (int i = 0; i < WORDS; ++i) b.u[i] = (unsigned)w[i];
  *v = b.v;
  return hi & 3;
}

/* Inclusive scan over the warp (lane order); every lane gets its prefix. */
GG_INLINE acc_t warp_inclusive(acc_t x, unsigned lane)
{
  for (unsigned d = 1; d < (unsigned)gg_warp_size(); d <<= 1) {
    const acc_t o = gg_shfl(x, lane >= d ? lane - d : lane);
    if (lane >= d) x = combine(o, x);
  }
  return x;
}

/* Exclusive scan of one value per thread over the (pseudo-)block;
 * *total gets the block's aggregate.  Two barriers. */
GG_INLINE acc_t block_exclusive(acc_t x, const gg_grid &g, acc_t *warp_sums, acc_t *total)
{
  const unsigned ws = gg_warp_size();
  const unsigned lane = g.thread % ws, warp = g.thread / ws;
  const unsigned nwarps = (g.nthreads + ws - 1) / ws;
  const acc_t incl = warp_inclusive(x, lane);
  acc_t excl = gg_shfl(incl, lane == 0 ? 0 : lane - 1);
  if (lane == 0) excl = identity();
  if (lane == ws - 1) warp_sums[warp] = incl;
  gg_sync(g);
  if (warp == 0) {
    const acc_t s = lane < nwarps ? warp_sums[lane] : identity();
    const acc_t si = warp_inclusive(s, lane);
    if (lane < nwarps) warp_sums[lane] = si;
  }
  gg_sync(g);
  *total = warp_sums[nwarps - 1];
  if (warp > 0) excl = combine(warp_sums[warp - 1], excl);
  return excl;
}

/* The prefix of everything before tile t, by the first warp: lane l waits
 * for tile t-1-l to publish anything, the nearest lane holding an
 * inclusive prefix ends the walk, the lanes up to it are combined in tile
 * order; without one, the window moves 32 (64) tiles further back. */
GG_INLINE acc_t look_back(tile_state *st, long long t, unsigned seq, unsigned lane)
{
  const unsigned ws = gg_warp_size();
  acc_t prefix = identity();
  for (long long base = t - 1;; base -= ws) {
    const long long p = base - (long long)lane;
    unsigned status = ST_INCLUSIVE;
    acc_t v = identity();
    if (p >= 0) status = wait_for(st, p, seq, &v);
    /* nearest lane (latest tile) holding an inclusive prefix */
    unsigned stop = status == ST_INCLUSIVE ? lane : ws;
    for (unsigned m = ws / 2; m > 0; m >>= 1) {
      const unsigned o = gg_shfl_xor(stop, m);
      stop = o < stop ? o : stop;
    }
    /* combine lanes stop..0 in tile order (higher lane = earlier tile) */
    acc_t w = lane <= stop ? v : identity();
    for (unsigned d = 1; d < ws; d <<= 1) {
      const acc_t o = gg_shfl_down(w, d);
      if (lane + d < ws) w = combine(o, w);
    }
    prefix = combine(gg_shfl(w, 0), prefix);
    if (stop < ws) return prefix;
  }
}

/* The tiles of block g.block.  NT: the threads per block when the
 * compiler may know it (a classic launch runs BLOCK threads), 0 for a
 * pseudo-block of a persistent kernel (g.nthreads <= BLOCK).  A constant
 * stride turns the ITEMS loads and stores of a thread into one address
 * plus immediate offsets: with g.nthreads in the addresses, ptxas kept
 * one 64-bit address per item and f32 x 16 needed 48 registers. */
template <unsigned NT>
GG_INLINE void scan_tiles(const {{ARGS_T}} &args, const gg_grid &g)
{
  const unsigned nthreads = NT ? NT : g.nthreads;
  const long long n = work(args);
  const unsigned tile_len = nthreads * ITEMS;
  const long long ntiles = (n + tile_len - 1) / tile_len;
  acc_t *tile = (acc_t *)g.smem;
  acc_t *warp_sums = tile + pad(tile_len) + 1; /* 66 slots, then the broadcast */
  acc_t *bcast = warp_sums + 66;
  tile_state *st = (tile_state *)args.gg_ws;
  const unsigned seq = args.gg_seq; /* never 0: the runtime skips it */
  const unsigned lane = g.thread % gg_warp_size();
  acc_t carry = identity(); /* one block: the running prefix, no look-back */
  /* Pseudo-blocks (named barriers) all run as many rounds as the busiest
     one: a round past the last tile (t >= ntiles) loads nothing, stores
     nothing and publishes nothing, but passes the same barriers, so that
     every pseudo-block passes as many named barriers as the others:
     compute-sanitizer's racecheck reports hazards that do not exist
     where their counts differ (tests/sanitizer/named_barriers.cu, mode
     ticket).  A pseudo-block without a tile of its own would be idle. */
  const long long end = g.bar_id ? (ntiles + g.nblocks - 1) / g.nblocks * g.nblocks : ntiles;

  for (long long t = g.block; t < end; t += g.nblocks) {
    const long long base = t * tile_len;
    /* every tile but the last is whole: no bounds checks there */
    const bool whole = base + tile_len <= n;
    /* 1. coalesced loads: consecutive threads, consecutive elements, all
     * ITEMS loads issued before the first use */
    if (whole) {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * nthreads + g.thread;
        tile[pad(e)] = value_at(args, base + e);
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * nthreads + g.thread;
        tile[pad(e)] = base + e < n ? value_at(args, base + e) : identity();
      }
    }
    gg_sync(g);
    /* 2. each thread folds its ITEMS consecutive elements.  KEEP_ITEMS
     * (the plan's): they stay in registers x[] for step 5; else step 5
     * reads them again from shared memory, keeping no ITEMS registers
     * live across the block scan and the look-back (registers are
     * occupancy: ptxas, sm_90, 256 x 16: f32 took 48 registers - 5 blocks
     * per SM - where i32 took 32; with the constant stride alone f32 took
     * 40, with this too 32, as do i32, i64 and f64 at 8 and 16 items) */
    acc_t x[ITEMS];
    acc_t sum = tile[pad(g.thread * ITEMS)];
    if (KEEP_ITEMS) x[0] = sum;
#pragma unroll
    for (int j = 1; j < ITEMS; ++j) {
      const acc_t v = tile[pad(g.thread * ITEMS + j)];
      if (KEEP_ITEMS) x[j] = v;
      sum = combine(sum, v);
    }
    /* 3. scan of the threads' sums: each thread's exclusive prefix */
    acc_t aggregate;
    acc_t running = block_exclusive(sum, g, warp_sums, &aggregate);
    /* 4. the prefix of the earlier tiles */
    if (g.nblocks == 1) {
      if (g.thread == 0) *bcast = carry;
      carry = combine(carry, aggregate);
    } else if (g.thread < (unsigned)gg_warp_size()) {
      if (t >= ntiles) { /* a round past the last tile */
        if (g.thread == 0) *bcast = identity();
      } else if (t == 0) {
        if (g.thread == 0) {
          publish(st, 0, seq, ST_INCLUSIVE, aggregate);
          *bcast = identity();
        }
      } else {
        if (g.thread == 0) publish(st, t, seq, ST_AGGREGATE, aggregate);
        const acc_t prefix = look_back(st, t, seq, lane);
        if (g.thread == 0) {
          publish(st, t, seq, ST_INCLUSIVE, combine(prefix, aggregate));
          *bcast = prefix;
        }
      }
    }
    gg_sync(g);
    running = combine(*bcast, running);
    /* 5. each thread's outputs back into the tile, then coalesced stores */
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const acc_t before = running;
      acc_t *e = &tile[pad(g.thread * ITEMS + j)];
      running = combine(running, KEEP_ITEMS ? x[j] : *e);
      *e = INCLUSIVE ? running : before;
    }
    gg_sync(g);
    if (whole) {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * nthreads + g.thread;
        store_at(args, base + e, tile[pad(e)]);
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * nthreads + g.thread;
        if (base + e < n) store_at(args, base + e, tile[pad(e)]);
      }
    }
    gg_sync(g); /* the tile's shared memory is reused by the next tile */
  }
}

/* A pseudo-block of a persistent kernel: any thread count up to BLOCK. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  scan_tiles<0>(args, g);
}

/* A hardware block of BLOCK threads, the stride a constant: the classic
 * launch calls this one or the one above, as the plan's LAUNCH_BODY says. */
__device__ void gg_body_block(const {{ARGS_T}} &args, const gg_grid &g)
{
  scan_tiles<BLOCK>(args, g);
}
#undef GG_COMBINE
