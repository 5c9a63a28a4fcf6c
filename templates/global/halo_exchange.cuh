/* ---- halo exchange: a frame's chunk edges in tagged words ---------------
 * A rank-1 for stage hands (pseudo-)block b the chunk c = k nblocks + b
 * of C = threads x vector consecutive indices at grid-stride step k
 * (for.cuh: gg_lo is the chunk's first index, gg_c its number).  A later
 * stage that reads a view within a declared halo h <= C of its own index
 * touches its own chunk and the last h indices of chunk c - 1 and the
 * first h of chunk c + 1.  Instead of waiting until both neighbours have
 * finished (a release store, acquire polls, then a reload of the data:
 * four trips to L2), the stage that wrote the view publishes each chunk's
 * edges as it goes, and the reader polls the published value itself
 * (NCCL's LL protocol): one store and one poll on the critical path.
 *
 * Slots (one publication: a stage's view, in the frame's workspace; the
 * plan sizes it, gen/frame_exchange.c): chunk c owns 2H slots from 2H c - its
 * first H indices, then its last H (H: the widest halo of its readers).
 * A slot is W = ceil(sizeof(T) / 4) 64-bit words, each (tag << 32 | 32
 * bits of the value); the tag is the frame's gg_seq, never 0 (the
 * session zeroes the workspace when it opens, and numbers each command's
 * frames from 1).  A reader takes a word when its tag is this frame's:
 * a 64-bit store is single-copy atomic, so value and tag arrive together
 * and no fence orders them.  A slot that was not rewritten for 2^32 - 1
 * frames of its command (the range shrank below it and grew back) could
 * pass for a fresh one; a range that stays put rewrites every slot every
 * frame.
 *
 * What else keeps it correct (gen/frame_deps.c and frame_exchange.c prove the rest): the reader's
 * own chunk was written by its own (pseudo-)block, ordered by the block
 * barrier before the stage; indices outside [0, work) are never published
 * and are read from memory, as a classic launch would; frames never
 * overlap (persistent.cuh), so a slot is not rewritten while a reader of
 * the frame before still waits for it.  A reader that waits looks at the
 * host's abort line now and then and, once it is set, reads memory
 * instead, so an aborted session's frame ends instead of hanging.
 */
#ifndef GG_XCHG_HELPERS
#define GG_XCHG_HELPERS
#define GG_XCHG_SPIN_FAST 64u     /* back-to-back polls before pausing */
#define GG_XCHG_ABORT_EVERY 4095u /* polls between looks at the abort line */

/* A stage's publication of one view it writes; slots null: none. */
struct gg_xchg_pub {
  unsigned long long *slots = nullptr;
  long long h = 0;  /* H: indices published at each end of a chunk */
  unsigned tag = 0; /* the frame's gg_seq */
};
/* A halo view read through another stage's publication; slots null:
 * every index from memory (a classic launch, or a frame whose ranges do
 * not fit the slots this time). */
struct gg_xchg_rd {
  const unsigned long long *slots = nullptr;
  long long h = 0;            /* the publication's H */
  long long work = 0;         /* indices published: [0, work) */
  unsigned tag = 0;
  const char *mbox = nullptr; /* the host's abort line */
};

GG_INLINE gg_xchg_pub gg_xchg_pub_of(unsigned long long *slots, long long h, unsigned tag)
{
  gg_xchg_pub p;
  p.slots = slots;
  p.h = h;
  p.tag = tag;
  return p;
}
GG_INLINE gg_xchg_rd gg_xchg_rd_of(const unsigned long long *slots, long long h, long long work,
                                   unsigned tag, const char *mbox)
{
  gg_xchg_rd r;
  r.slots = slots;
  r.h = h;
  r.work = work;
  r.tag = tag;
  r.mbox = mbox;
  return r;
}

/* Does a range of work indices in chunks of C fit slots for k chunks per
 * (pseudo-)block of nblocks?  Part of the frame's switch, which every
 * block computes alike. */
GG_INLINE bool gg_xchg_fits(long long work, long long chunk, long long k, unsigned nblocks)
{
  return (work + chunk - 1) / chunk <= k * (long long)nblocks;
}

template <class T> GG_INLINE void gg_xchg_put(const gg_xchg_pub &p, long long slot, const T &v)
{
  enum { W = (sizeof(T) + 3) / 4 };
  unsigned bits[W] = {};
  for (unsigned i = 0; i < sizeof(T); ++i) /* the bytes, as a memcpy */
    ((unsigned char *)bits)[i] = ((const unsigned char *)&v)[i];
  unsigned long long *w = p.slots + slot * W;
#pragma unroll
  for (int k = 0; k < W; ++k) gg_xchg_st(w + k, (unsigned long long)p.tag << 32 | bits[k]);
}

/* After a for body ran index i of chunk c (first index lo, C indices):
 * publish v[i] when i is among the chunk's first or last H indices.  v[i]
 * is read back once - whatever the body left there, also when it skipped
 * the index - and the compiler takes the value it just stored when it
 * can (in the PTX of a 3-point stencil: no load; a reload would put one
 * more trip to L2 before every publication). */
template <class T>
GG_INLINE void gg_halo_pub(const gg_xchg_pub &p, const T *v, long long i, long long lo,
                           long long chunk, long long c)
{
  if (!p.slots) return;
  const long long r = i - lo;
  if (r >= p.h && r < chunk - p.h) return;
  const T x = v[i];
  if (r < p.h) gg_xchg_put(p, 2 * p.h * c + r, x);
  if (r >= chunk - p.h) gg_xchg_put(p, 2 * p.h * c + p.h + (r - (chunk - p.h)), x);
}

/* Wait for slot `slot` of this frame; false when the host aborted the
 * session meanwhile. */
template <class T> GG_INLINE bool gg_xchg_get(const gg_xchg_rd &rd, long long slot, T &out)
{
  enum { W = (sizeof(T) + 3) / 4 };
  const unsigned long long *w = rd.slots + slot * W;
  unsigned long long word[W];
  for (unsigned spins = 1;; ++spins) {
    bool ok = true;
#pragma unroll
    for (int k = 0; k < W; ++k) { /* every word's load in flight, then the tags */
      word[k] = gg_xchg_ld(w + k);
    }
#pragma unroll
    for (int k = 0; k < W; ++k) ok = ok && (unsigned)(word[k] >> 32) == rd.tag;
    if (ok) break;
    if (spins > GG_XCHG_SPIN_FAST) gg_xchg_pause();
    if ((spins & GG_XCHG_ABORT_EVERY) == 0 && gg_host_aborted(rd.mbox)) return false;
  }
  unsigned bits[W];
#pragma unroll
  for (int k = 0; k < W; ++k) bits[k] = (unsigned)word[k];
  for (unsigned i = 0; i < sizeof(T); ++i)
    ((unsigned char *)&out)[i] = ((const unsigned char *)bits)[i];
  return true;
}

/* A halo view's element j, for the thread at own index `own` of chunk c
 * (first index lo, C indices): checked against the halo h (a trap
 * beyond it, as gg_halo_index), then from the neighbour's publication
 * when j lies in chunk c - 1 or c + 1 and a publication is there, else
 * from memory.  The slot of chunk c - 1's index j is 2H c + (j - lo)
 * (its last H indices end where chunk c begins); of chunk c + 1's,
 * 2H (c + 1) + (j - lo - C). */
template <class T>
GG_INLINE T gg_halo_ld(const T *v, long long j, long long own, long long h, const gg_xchg_rd &rd,
                       long long lo, long long chunk, long long c)
{
  gg_halo_index(j, own, h);
  if (rd.slots && j >= 0 && j < rd.work && (j < lo || j >= lo + chunk)) {
    T x;
    const long long slot = j < lo ? 2 * rd.h * c + (j - lo) : 2 * rd.h * (c + 1) + (j - lo - chunk);
    if (gg_xchg_get(rd, slot, x)) return x;
  }
  return v[j];
}
#endif /* GG_XCHG_HELPERS */
