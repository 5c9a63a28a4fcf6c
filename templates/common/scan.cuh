/* scan {{NAME}} ({{INCLUSIVE}} = inclusive): one pass, decoupled look-back.
 *
 * The range is cut into tiles of nthreads x ITEMS elements, one tile per
 * block (a virtual grid with fewer blocks than tiles loops, tile by
 * tile).  A block scans its tile in shared memory, publishes the tile's
 * aggregate, then looks back over its predecessors - one warp, one
 * predecessor per lane - until it meets an inclusive prefix, and
 * publishes its own inclusive prefix.  Every flag carries the launch's
 * gg_seq and the tile's ring round: a flag from an earlier launch or an
 * earlier round reads as "not yet", so the workspace is never cleared.
 * Memory traffic: one read and one write of the data, like a copy.
 *
 * PACKED (4-byte or smaller sums): the status, its tag and the value
 * share one 64-bit word, so one store publishes them together and one
 * load reads them together - no fence anywhere on the look-back path.
 * A fence (MEMBAR.SC.GPU) costs microseconds under full memory traffic,
 * and the look-back is the chain every tile waits on.  Wider values keep
 * a separate flag and a fence between the value and the flag. */
{{COMBINE_DEF}}
namespace GG_NS_{{NAME}} {

typedef {{ACC_T}} acc_t;
enum { ITEMS = {{SCAN_ITEMS}}, INCLUSIVE = {{INCLUSIVE}}, RING = {{SCAN_RING}} /* power of two */ };
enum { PACKED = {{SCAN_PACKED}} };
enum { ST_AGGREGATE = 1, ST_INCLUSIVE = 2 };

/* One per tile in the workspace: tile t uses slot t % RING.  Unpacked,
 * the flag says whose state the slot holds: launch (gg_seq, high word),
 * ring round t / RING and status (low word).  Packed, the flag word is
 * {tag << 2 | status (high half), value bits (low half)} and the two
 * value fields are unused.  A flag from an earlier launch, or from the
 * tile one ring earlier, reads as "not yet", so the workspace is never
 * cleared and a slot is never misread when the ring wraps. */
struct tile_state {
  unsigned long long flag;
  acc_t aggregate;
  acc_t inclusive;
};

GG_INLINE unsigned long long flag_of(unsigned seq, long long t, unsigned status)
{
  return (unsigned long long)seq << 32 | (unsigned long long)((t / RING) & 0x3fffffff) << 2 | status;
}

/* The packed tag: 30 bits of (seq, round).  The round is spread by an
 * odd constant so that rounds of one launch never share a tag; a stale
 * word misreads only if its launch was 2^30 launches of this kernel ago
 * (with the round) and nothing rewrote the slot since. */
GG_INLINE unsigned tag_of(unsigned seq, long long t)
{
  return (seq + (unsigned)(t / RING) * 0x9e3779b9u) << 2;
}

{{> common/scalar_value.cuh}}

/* Shared-memory index of tile element e: one pad word per 32, so that a
 * thread reading its ITEMS consecutive elements and a warp reading 32
 * consecutive ones both hit 32 different banks. */
GG_INLINE unsigned pad(unsigned e) { return e + e / 32; }

/* Value bits <-> the low half of a packed word (PACKED only: acc_t has
 * 4 bytes or fewer there; the union keeps wider types compilable). */
union bits_of {
  unsigned u;
  acc_t v;
};
GG_INLINE unsigned long long pack(unsigned tag, unsigned status, acc_t v)
{
  bits_of b;
  b.u = 0;
  b.v = v;
  return (unsigned long long)(tag | status) << 32 | b.u;
}
GG_INLINE acc_t unpack(unsigned long long w)
{
  bits_of b;
  b.v = identity();
  b.u = (unsigned)w;
  return b.v;
}

GG_INLINE void publish(tile_state *st, long long t, unsigned seq, unsigned status, acc_t v)
{
  tile_state *s = &st[t & (RING - 1)];
  if (PACKED) { /* one 64-bit store: value, tag and status arrive together */
    *(volatile unsigned long long *)&s->flag = pack(tag_of(seq, t), status, v);
    return;
  }
  if (status == ST_AGGREGATE)
    s->aggregate = v;
  else
    s->inclusive = v;
  /* the value is visible before the flag that announces it (a fence, then
   * a 64-bit volatile store: the flag and its tag change in one access) */
  __threadfence();
  *(volatile unsigned long long *)&s->flag = flag_of(seq, t, status);
}

/* Wait until tile p of this launch has published anything; its status,
 * and its value in *v. */
GG_INLINE unsigned wait_for(const tile_state *st, long long p, unsigned seq, acc_t *v)
{
  const tile_state *sp = &st[p & (RING - 1)];
  if (PACKED) {
    const unsigned want = tag_of(seq, p);
    unsigned long long w;
    unsigned hi;
    do {
      w = *(volatile const unsigned long long *)&sp->flag;
      hi = (unsigned)(w >> 32);
    } while ((hi & ~3u) != want || (hi & 3) == 0);
    *v = unpack(w);
    return hi & 3;
  }
  const unsigned long long want = flag_of(seq, p, 0);
  unsigned long long f;
  do {
    f = *(volatile const unsigned long long *)&sp->flag;
  } while ((f & ~3ull) != want || (f & 3) == 0);
  __threadfence(); /* pairs with publish(): the value is there */
  const unsigned status = (unsigned)(f & 3);
  *v = status == ST_INCLUSIVE ? *(volatile const acc_t *)&sp->inclusive
                              : *(volatile const acc_t *)&sp->aggregate;
  return status;
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

} /* namespace GG_NS_{{NAME}} */

__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g)
{
  using namespace GG_NS_{{NAME}};
  const long long n = work(args);
  const unsigned tile_len = g.nthreads * ITEMS;
  const long long ntiles = (n + tile_len - 1) / tile_len;
  acc_t *tile = (acc_t *)g.smem;
  acc_t *warp_sums = tile + pad(tile_len) + 1; /* 66 slots, then the broadcast */
  acc_t *bcast = warp_sums + 66;
  tile_state *st = (tile_state *)args.gg_ws;
  const unsigned seq = args.gg_seq; /* never 0: the runtime skips it */
  const unsigned lane = g.thread % gg_warp_size();
  acc_t carry = identity(); /* one block: the running prefix, no look-back */

  for (long long t = g.block; t < ntiles; t += g.nblocks) {
    const long long base = t * tile_len;
    /* every tile but the last is whole: no bounds checks there */
    const bool whole = base + tile_len <= n;
    /* 1. coalesced loads: consecutive threads, consecutive elements, all
     * ITEMS loads issued before the first use */
    if (whole) {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * g.nthreads + g.thread;
        tile[pad(e)] = value_at(args, base + e);
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * g.nthreads + g.thread;
        tile[pad(e)] = base + e < n ? value_at(args, base + e) : identity();
      }
    }
    gg_sync(g);
    /* 2. each thread folds its ITEMS consecutive elements */
    acc_t x[ITEMS];
    acc_t sum = identity();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      x[j] = tile[pad(g.thread * ITEMS + j)];
      sum = combine(sum, x[j]);
    }
    /* 3. scan of the threads' sums: each thread's exclusive prefix */
    acc_t aggregate;
    acc_t running = block_exclusive(sum, g, warp_sums, &aggregate);
    /* 4. the prefix of the earlier tiles */
    if (g.nblocks == 1) {
      if (g.thread == 0) *bcast = carry;
      carry = combine(carry, aggregate);
    } else if (g.thread < (unsigned)gg_warp_size()) {
      if (t == 0) {
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
      running = combine(running, x[j]);
      tile[pad(g.thread * ITEMS + j)] = INCLUSIVE ? running : before;
    }
    gg_sync(g);
    if (whole) {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * g.nthreads + g.thread;
        store_at(args, base + e, tile[pad(e)]);
      }
    } else {
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const unsigned e = j * g.nthreads + g.thread;
        if (base + e < n) store_at(args, base + e, tile[pad(e)]);
      }
    }
    gg_sync(g); /* the tile's shared memory is reused by the next tile */
  }
}
#undef GG_COMBINE
