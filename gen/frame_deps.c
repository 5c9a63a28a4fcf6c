/*
 * frame_deps.c - the schedule's proofs: what a stage of a frame does to
 * each frame view, and where its dependency on an earlier stage can be
 * kept without a grid barrier (in one thread, in one (pseudo-)block,
 * between neighbouring (pseudo-)blocks, or inside a fused reduction).
 * frame_schedule.c places the barriers from these answers;
 * frame_exchange.c reads them for the halo exchange.
 */
#include "frame_deps.h"
#include "patterns.h"
#include "plan.h"

#include <stdint.h>
#include <string.h>

/* ---- the patterns, as the schedule sees them ----
 * Every question the schedule asks about a stage's pattern, in one
 * place, answered by the pattern's row (patterns.h: GGI_PAT_STRIDE,
 * _FOLD, _NOTES, item_only): the rest of the schedule asks these. */

/* The vector of kernel k's grid-stride mapping as a stage (fused: it
 * runs the for stage before it inside its fold): a for kernel's, 1 for
 * a reduction that runs a fused for stage (its fold then walks the range
 * index by index, as a for stage of vector 1: reduce_fold.cuh); 0 when
 * it maps no index to a thread that way. */
int ggi_stage_vector(const ggi_kernel *k, int fused)
{
  if (ggi_pattern_is(k, GGI_PAT_STRIDE)) return k->spec.vector;
  return ggi_pattern_is(k, GGI_PAT_FOLD) && fused ? 1 : 0;
}

/* Kernel k runs one league item per (pseudo-)block at a time (team,
 * fft: templates/common/team_loop.cuh, fft.cuh): its row can tell
 * whether it touches a view only in its own item. */
static int runs_items(const ggi_kernel *k)
{
  return ggi_pattern_of(k->pattern)->item_only != NULL;
}

/* Kernel k (runs_items) touches its view kp only in its own item, as
 * far as its text shows (the row's item_only). */
static int item_only(const ggi_kernel *k, const ggi_param *kp)
{
  return ggi_pattern_of(k->pattern)->item_only(k, kp);
}

/* Kernel kr, a reduction, may run kf, a for kernel of vector 1, inside
 * its fold (the rest of the proof: ggi_frame_fusable). */
static int fuses(const ggi_kernel *kf, const ggi_kernel *kr)
{
  return ggi_pattern_is(kf, GGI_PAT_STRIDE) && ggi_pattern_is(kr, GGI_PAT_FOLD) &&
         kf->spec.vector == 1;
}

/* Kernel k, as a stage, takes chunks of consecutive indices per
 * grid-stride step (a rank-1 for: templates/common/for.cuh). */
int ggi_stage_chunked(const ggi_kernel *k)
{
  return ggi_pattern_is(k, GGI_PAT_STRIDE) && k->rank == 1;
}

/* Kernel k ends with a reduction's store(), which leaves a note of its
 * value (gg_result_note, prelude): reduce, and team or fft with into.
 * (scan and tile_reduce write their outputs otherwise.) */
int ggi_stage_notes(const ggi_kernel *k)
{
  return k->into && ggi_pattern_is(k, GGI_PAT_NOTES);
}

/* What stage s does to frame view p: bit 1 reads, bit 2 writes. */
int ggi_frame_use(const ggi_kernel *fr, int s, int p)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  int u = 0;
  for (int j = 0; j < k->nparams; j++)
    if (st->bind[j] == p && k->params[j].kind == GG_PARAM_VIEW)
      u |= (ggi_access_reads(k->params[j].access) ? 1 : 0) |
           (ggi_access_writes(k->params[j].access) ? 2 : 0);
  return u;
}

/* Whether stages r < s conflict through frame view p: s reads what r
 * writes, writes what r reads, or both write it.  *vs and *vr: the verbs
 * of s and of r, for explain. */
int ggi_frame_conflict(const ggi_kernel *fr, int r, int s, int p, const char **vs, const char **vr)
{
  if (fr->params[p].kind != GG_PARAM_VIEW) return 0;
  int ur = ggi_frame_use(fr, r, p), us = ggi_frame_use(fr, s, p);
  if ((us & 1) && (ur & 2)) *vs = "reads", *vr = "writes";
  else if ((us & 2) && (ur & 1)) *vs = "writes", *vr = "reads";
  else if ((us & 2) && (ur & 2)) *vs = "writes", *vr = "also writes";
  else return 0;
  return 1;
}

/* ---- dependencies that stay in one thread ----
 * Two for stages on the frame's one virtual grid hand index i to the same
 * thread when they walk the same range with the same grid-stride loop
 * (templates/common/for.cuh: linear index -> thread depends only on the
 * grid, the vector width, the range and the decode order).  If both
 * touch a view only at their own index, V(i), the element a thread reads
 * in the later stage is the one it wrote itself in the earlier: program
 * order in that thread orders them, and no other thread is involved, so
 * the stage needs no barrier of any kind.  (The views are plain global
 * loads and stores: the bodies' restrict pointers are local to each
 * inlined stage, so the compiler has no read-only kernel argument to turn
 * into ld.global.nc - none in the PTX of examples/chain.lua's frame, whose
 * filter reads the y its scale wrote.) */

/* Extent e of stage s's kernel, as the frame gives it: the frame extent's
 * name, or NULL and *value for a constant. */
static const char *frame_extent(const ggi_kernel *fr, int s, ggi_extent e, int64_t *value)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  *value = e.value;
  if (!e.name) return NULL;
  for (int j = 0; j < k->nextents; j++)
    if (strcmp(k->extents[j], e.name) == 0) {
      *value = st->ext[j].value;
      return st->ext[j].name;
    }
  return "";  /* not a run-time extent of the kernel: never proven equal */
}

static int same_extent(const ggi_kernel *fr, int r, ggi_extent er, int s, ggi_extent es)
{
  int64_t a, b;
  const char *na = frame_extent(fr, r, er, &a), *nb = frame_extent(fr, s, es, &b);
  if (na || nb) return na && nb && *na && strcmp(na, nb) == 0;
  return a == b;
}

/* The vector of stage s's grid-stride mapping (ggi_stage_vector). */
static int mapping_vector(const ggi_kernel *fr, int s)
{
  return ggi_stage_vector(ggi_stage_kernel(fr, s), fr->frame->stages[s].fused);
}

/* Stages r and s map every index of their range to the same thread. */
/* Stages r and s have one range, linear indices decoded alike. */
static int same_range(const ggi_kernel *fr, int r, int s)
{
  const ggi_kernel *kr = ggi_stage_kernel(fr, r), *ks = ggi_stage_kernel(fr, s);
  if (kr->rank != ks->rank) return 0;
  if (kr->rank > 1 && kr->spec.first_fastest != ks->spec.first_fastest) return 0;
  for (int d = 0; d < kr->rank; d++)
    if (!same_extent(fr, r, kr->range[d], s, ks->range[d])) return 0;
  return 1;
}

int ggi_frame_same_mapping(const ggi_kernel *fr, int r, int s)
{
  const int vr = mapping_vector(fr, r);
  return vr != 0 && vr == mapping_vector(fr, s) && same_range(fr, r, s);
}

/* ---- dependencies between neighbouring (pseudo-)blocks ----
 * In a rank-1 for stage, (pseudo-)block b takes the chunk of consecutive
 * indices [(k nblocks + b) C, ... + C) at grid-stride step k, C = the
 * frame's threads x the stage's vector (templates/common/for.cuh), so
 * the chunks in index order belong to blocks ..., b - 1, b, b + 1, ...
 * (mod nblocks: the last block's chunk of step k is followed by block
 * 0's of step k + 1).  A body that writes a view only at its own index
 * and reads it only within a declared halo h <= C of its own index
 * touches elements of its own chunk and of the chunks just before and
 * after it: two such stages on the same mapping conflict only within
 * one block or between neighbours b and b +- 1.  The stage then waits
 * until both neighbours have finished every stage before it (their
 * progress words, templates/cuda/frame.cuh), not for the whole grid.
 *   - Writes stay own-index: a halo view must be access "in" (an
 *     "inout" one could write a neighbour's chunk, and then a block two
 *     away would share elements).  So every cross-block conflict is
 *     between neighbours, which is what the wait covers; a block k away
 *     may lag up to k waits behind, but touches none of this block's
 *     elements.
 *   - WAR is covered the same way: a neighbour's reads of a stage before
 *     are finished before it publishes its progress.
 *   - A later grid barrier still orders everything before it (the
 *     schedule's fence is unchanged); a frame ends with every block's
 *     arrival and the next starts after block 0 saw them all
 *     (templates/cuda/persistent.cuh), so frames never overlap.
 *   - Halo uses must go through the view's macro (which traps beyond h)
 *     and be proven so (ggi_body_calls_only); strided views may alias.
 * C is sized for the fewest threads per (pseudo-)block of the persistent
 * kernels that run the frame (frame_threads): more threads only make
 * the chunks larger. */

/* Does stage s's param kp (not own-index) read only within a halo that
 * the neighbour wait covers? */
static int near_use(const ggi_kernel *k, const ggi_stage *st, const ggi_param *kp)
{
  return kp->halo > 0 && kp->access == GG_ACCESS_IN && kp->rank == 1 &&
         kp->layout != GG_LAYOUT_STRIDE && st->chunk > 0 && kp->halo <= st->chunk &&
         ggi_body_calls_only(k, kp);
}

/* Every param of stage s bound to frame view p is touched only at the
 * thread's own index, with the layout and extents of *first (set by the
 * first one seen, over both stages).  With halo non-NULL a param may
 * instead read within a declared halo no larger than the stage's chunk
 * (ggi_frame_same_neighbours); *halo: the largest such halo seen. */
static int index_uses(const ggi_kernel *fr, int s, int p, int *first_stage,
                      const ggi_param **first, int *halo)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (st->bind[j] != p || kp->kind != GG_PARAM_VIEW) continue;
    /* a reduction's result: stored by one thread, whatever the values say */
    if (k->into && strcmp(kp->name, k->into) == 0) return 0;
    if (ggi_body_own_index(k, kp)) {
      /* two threads' own indices could be one element */
      if (ggi_view_may_alias(kp)) return 0;
    } else if (!halo || !near_use(k, st, kp)) {
      return 0;
    } else if (kp->halo > *halo) {
      *halo = kp->halo;
    }
    if (!*first) {
      *first = kp;
      *first_stage = s;
      continue;
    }
    if (kp->layout != (*first)->layout || kp->rank != (*first)->rank) return 0;
    for (int d = 0; d < kp->rank; d++)
      if (!same_extent(fr, *first_stage, (*first)->ext[d], s, kp->ext[d])) return 0;
  }
  return 1;
}

/* Is stage s's dependency on stage r through view p one within each thread? */
int ggi_frame_same_thread(const ggi_kernel *fr, int r, int s, int p)
{
  const ggi_param *first = NULL;
  int first_stage = -1;
  return ggi_frame_same_mapping(fr, r, s) && index_uses(fr, r, p, &first_stage, &first, NULL) &&
         index_uses(fr, s, p, &first_stage, &first, NULL);
}

/* Is it one between neighbouring (pseudo-)blocks?  *halo: the largest
 * halo of the two stages' uses of p. */
int ggi_frame_same_neighbours(const ggi_kernel *fr, int r, int s, int p, int *halo)
{
  const ggi_param *first = NULL;
  int first_stage = -1;
  *halo = 0;
  return ggi_frame_same_mapping(fr, r, s) && ggi_stage_kernel(fr, s)->rank == 1 &&
         fr->frame->stages[s].chunk > 0 &&
         index_uses(fr, r, p, &first_stage, &first, halo) &&
         index_uses(fr, s, p, &first_stage, &first, halo);
}

/* ---- dependencies that stay in one block ----
 * A team and an fft stage both walk their league the same way: item l on
 * (pseudo-)block l, l + nblocks, ... of the frame's one virtual grid
 * (templates/common/team_loop.cuh, fft.cuh).  When two such stages have
 * one league and each touches view p only inside its own item - its
 * first index is the item - every element the later stage reads was
 * written by its own (pseudo-)block: a block barrier (bar.sync orders the
 * block's global writes before its later reads) replaces the grid one.
 * A gemm's items span several blocks (its tiles), and a strided view may
 * alias two items, so neither takes part. */

/* The league of stage s when it runs one item per (pseudo-)block at a
 * time (team, fft), else NULL. */
static const ggi_extent *item_league(const ggi_kernel *fr, int s)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  return runs_items(k) ? &k->league : NULL;
}

/* Every param of stage s bound to frame view p is a view whose first
 * extent is the stage's league and which the stage touches only in its
 * own item. */
static int own_item_uses(const ggi_kernel *fr, int s, int p)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (st->bind[j] != p || kp->kind != GG_PARAM_VIEW) continue;
    if (kp->layout == GG_LAYOUT_STRIDE || kp->rank < 1) return 0;
    /* a team reduction's result: the block that finishes last writes it
       for every team (the ticket), not each block its own item */
    if (k->into && strcmp(kp->name, k->into) == 0) return 0;
    if (!same_extent(fr, s, kp->ext[0], s, k->league)) return 0;
    if (!item_only(k, kp)) return 0;
  }
  return 1;
}

/* Is stage s's dependency on stage r through view p one within each block? */
static int same_block(const ggi_kernel *fr, int r, int s, int p)
{
  const ggi_extent *lr = item_league(fr, r), *ls = item_league(fr, s);
  return lr && ls && same_extent(fr, r, *lr, s, *ls) && own_item_uses(fr, r, p) &&
         own_item_uses(fr, s, p);
}

/* ---- a for stage run inside the reduction after it ----
 * A reduction's fold hands index i to thread i mod (blocks x threads)
 * (templates/common/reduce_fold.cuh), as a for stage of vector 1 does.
 * When a reduce stage over the same range reads what the for stage just
 * before it wrote, both only at their own index, the frame runs the for
 * body inside the fold, just before the fold reads index i's value
 * (GG_NS_<for>::gg_at, then value_at): one pass instead of two, no barrier, and
 * the values the for stage stores are taken from registers instead of
 * being read back (on host-mapped memory, a PCIe round trip each).  The
 * for stage's writes stay in the thread that owns the index, so what
 * later stages proved about it (same thread) still holds.  Left out:
 * for stages that touch a halo (their chunks would not be the fold's),
 * and a reduction that writes what the for stage touches. */
int ggi_frame_fusable(const ggi_kernel *fr, int s)
{
  if (s < 1) return 0;
  const ggi_kernel *kf = ggi_stage_kernel(fr, s - 1), *kr = ggi_stage_kernel(fr, s);
  if (!fuses(kf, kr) || !same_range(fr, s - 1, s)) return 0;
  for (int j = 0; j < kf->nparams; j++)
    if (kf->params[j].halo > 0) return 0;
  int conflicts = 0;
  for (int p = 0; p < fr->nparams; p++) {
    const char *vs, *vr;
    const ggi_param *first = NULL;
    int first_stage = -1;
    if (!ggi_frame_conflict(fr, s - 1, s, p, &vs, &vr)) continue;
    if ((ggi_frame_use(fr, s, p) & 2) || !index_uses(fr, s - 1, p, &first_stage, &first, NULL) ||
        !index_uses(fr, s, p, &first_stage, &first, NULL))
      return 0;
    conflicts++;
  }
  /* independent stages gain nothing, and the fold would give up its
     vector loads (a plain x(i) value) for the per-index loop */
  return conflicts > 0;
}

ggi_deps ggi_frame_find_deps(const ggi_kernel *fr, int s, int fence, int fuse)
{
  ggi_deps x = {-1, -1, -1, -1, -1, -1, -1, -1};
  int halo;
  for (int r = s - 1; r >= 0 && x.dep < 0; r--)
    for (int p = 0; p < fr->nparams && x.dep < 0; p++) {
      const char *vs, *vr;
      if (!ggi_frame_conflict(fr, r, s, p, &vs, &vr)) continue;
      if (r >= fence && ((fuse && r == s - 1) || ggi_frame_same_thread(fr, r, s, p))) {
        if (x.local < 0) x.local = r, x.local_view = p;
      } else if (r >= fence && same_block(fr, r, s, p)) {
        if (x.item < 0) x.item = r, x.item_view = p;
      } else if (r >= fence && ggi_frame_same_neighbours(fr, r, s, p, &halo)) {
        if (x.near < 0) x.near = r, x.near_view = p;
      } else {
        x.dep = r, x.dep_view = p;
      }
    }
  return x;
}
