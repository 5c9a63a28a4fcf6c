/*
 * frame.c - frames: the dependency analysis that places barriers between
 * stages, the frame's plan, and the device function that runs the stages
 * back to back on the persistent kernel's virtual grid.
 *
 * Every decision about a frame is made in ggi_frame_schedule() and kept
 * in the IR; emit, explain and list only read it.
 */
#include "frame.h"
#include "body_check.h"
#include "dict.h"
#include "names.h"
#include "plan.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>



static int writes(gg_access a) { return a != GG_ACCESS_IN; }
static int reads(gg_access a) { return a == GG_ACCESS_IN || a == GG_ACCESS_INOUT; }

static const ggi_kernel *stage_kernel(const ggi_kernel *fr, int s)
{
  return &fr->frame->kernels[fr->frame->stages[s].kernel_index];
}

/* What stage s does to frame view p: bit 1 reads, bit 2 writes. */
static int use_of(const ggi_kernel *fr, int s, int p)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  int u = 0;
  for (int j = 0; j < k->nparams; j++)
    if (st->bind[j] == p && k->params[j].kind == GG_PARAM_VIEW)
      u |= (reads(k->params[j].access) ? 1 : 0) | (writes(k->params[j].access) ? 2 : 0);
  return u;
}

/* Whether stages r < s conflict through frame view p: s reads what r
 * writes, writes what r reads, or both write it.  *vs and *vr: the verbs
 * of s and of r, for explain. */
static int conflict(const ggi_kernel *fr, int r, int s, int p, const char **vs, const char **vr)
{
  if (fr->params[p].kind != GG_PARAM_VIEW) return 0;
  int ur = use_of(fr, r, p), us = use_of(fr, s, p);
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
  const ggi_kernel *k = stage_kernel(fr, s);
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

/* The vector of stage s's grid-stride mapping: a for stage's, 1 for a
 * reduction that runs a fused for stage (its fold then walks the range
 * index by index, as a for stage of vector 1: reduce_fold.cuh); 0 when
 * it maps no index to a thread that way. */
static int mapping_vector(const ggi_kernel *fr, int s)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  if (k->pattern == GG_PATTERN_FOR) return k->spec.vector;
  return k->pattern == GG_PATTERN_REDUCE && fr->frame->stages[s].fused ? 1 : 0;
}

/* Stages r and s map every index of their range to the same thread. */
/* Stages r and s have one range, linear indices decoded alike. */
static int same_range(const ggi_kernel *fr, int r, int s)
{
  const ggi_kernel *kr = stage_kernel(fr, r), *ks = stage_kernel(fr, s);
  if (kr->rank != ks->rank) return 0;
  if (kr->rank > 1 && ggi_first_index_fastest(kr) != ggi_first_index_fastest(ks)) return 0;
  for (int d = 0; d < kr->rank; d++)
    if (!same_extent(fr, r, kr->range[d], s, ks->range[d])) return 0;
  return 1;
}

static int same_mapping(const ggi_kernel *fr, int r, int s)
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
 * (frame_near below); *halo: the largest such halo seen. */
static int index_uses(const ggi_kernel *fr, int s, int p, int *first_stage,
                      const ggi_param **first, int *halo)
{
  const ggi_kernel *k = stage_kernel(fr, s);
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
static int same_thread(const ggi_kernel *fr, int r, int s, int p)
{
  const ggi_param *first = NULL;
  int first_stage = -1;
  return same_mapping(fr, r, s) && index_uses(fr, r, p, &first_stage, &first, NULL) &&
         index_uses(fr, s, p, &first_stage, &first, NULL);
}

/* Is it one between neighbouring (pseudo-)blocks?  *halo: the largest
 * halo of the two stages' uses of p. */
static int same_neighbours(const ggi_kernel *fr, int r, int s, int p, int *halo)
{
  const ggi_param *first = NULL;
  int first_stage = -1;
  *halo = 0;
  return same_mapping(fr, r, s) && stage_kernel(fr, s)->rank == 1 &&
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
  const ggi_kernel *k = stage_kernel(fr, s);
  if (k->pattern != GG_PATTERN_TEAM && k->pattern != GG_PATTERN_FFT) return NULL;
  return &k->league;
}

/* Every param of stage s bound to frame view p is a view whose first
 * extent is the stage's league and which the stage touches only in its
 * own item. */
static int own_item_uses(const ggi_kernel *fr, int s, int p)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (st->bind[j] != p || kp->kind != GG_PARAM_VIEW) continue;
    if (kp->layout == GG_LAYOUT_STRIDE || kp->rank < 1) return 0;
    /* a team reduction's result: the block that finishes last writes it
       for every team (the ticket), not each block its own item */
    if (k->into && strcmp(kp->name, k->into) == 0) return 0;
    if (!same_extent(fr, s, kp->ext[0], s, k->league)) return 0;
    /* an fft touches only its item's slice of a batch view (fft.cuh),
       unless its post or between statements name the view too; a team
       body must say V(league_rank, ...) */
    if (k->pattern == GG_PATTERN_TEAM && !ggi_body_own_item(k, kp)) return 0;
    if (k->pattern == GG_PATTERN_FFT && (ggi_text_may_name(k->body, kp->name) ||
                                         ggi_text_may_name(k->fft_between, kp->name)))
      return 0;
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
static int fusable(const ggi_kernel *fr, int s)
{
  if (s < 1) return 0;
  const ggi_kernel *kf = stage_kernel(fr, s - 1), *kr = stage_kernel(fr, s);
  if (kf->pattern != GG_PATTERN_FOR || kr->pattern != GG_PATTERN_REDUCE || kf->spec.vector != 1 ||
      !same_range(fr, s - 1, s))
    return 0;
  for (int j = 0; j < kf->nparams; j++)
    if (kf->params[j].halo > 0) return 0;
  int conflicts = 0;
  for (int p = 0; p < fr->nparams; p++) {
    const char *vs, *vr;
    const ggi_param *first = NULL;
    int first_stage = -1;
    if (!conflict(fr, s - 1, s, p, &vs, &vr)) continue;
    if ((use_of(fr, s, p) & 2) || !index_uses(fr, s - 1, p, &first_stage, &first, NULL) ||
        !index_uses(fr, s, p, &first_stage, &first, NULL))
      return 0;
    conflicts++;
  }
  /* independent stages gain nothing, and the fold would give up its
     vector loads (a plain x(i) value) for the per-index loop */
  return conflicts > 0;
}

/* Where stage s depends on earlier stages, nearest first of each kind
 * (-1: none): across the grid (dep), within threads (local), within
 * league items (item), between neighbours (near); with fuse, on stage
 * s - 1 as a fused stage (counted as local). */
typedef struct ggi_deps {
  int dep, dep_view, local, local_view, item, item_view, near, near_view;
} ggi_deps;

static ggi_deps find_deps(const ggi_kernel *fr, int s, int fence, int fuse)
{
  ggi_deps x = {-1, -1, -1, -1, -1, -1, -1, -1};
  int halo;
  for (int r = s - 1; r >= 0 && x.dep < 0; r--)
    for (int p = 0; p < fr->nparams && x.dep < 0; p++) {
      const char *vs, *vr;
      if (!conflict(fr, r, s, p, &vs, &vr)) continue;
      if (r >= fence && ((fuse && r == s - 1) || same_thread(fr, r, s, p))) {
        if (x.local < 0) x.local = r, x.local_view = p;
      } else if (r >= fence && same_block(fr, r, s, p)) {
        if (x.item < 0) x.item = r, x.item_view = p;
      } else if (r >= fence && same_neighbours(fr, r, s, p, &halo)) {
        if (x.near < 0) x.near = r, x.near_view = p;
      } else {
        x.dep = r, x.dep_view = p;
      }
    }
  return x;
}

enum { DEP_GRID, DEP_THREAD, DEP_BLOCK, DEP_NEIGHBOUR }; /* where a dependency is kept */

/* A param of stage r or s bound to view p that reads within a declared
 * halo larger than its stage's chunk: why neighbour waits cannot keep
 * that dependency (near_use).  Its stage, or -1. */
static int halo_past_chunk(const ggi_kernel *fr, int r, int s, int p, const ggi_param **out)
{
  const int stages[2] = {r, s};
  for (int i = 0; i < 2; i++) {
    const ggi_kernel *k = stage_kernel(fr, stages[i]);
    const ggi_stage *st = &fr->frame->stages[stages[i]];
    for (int j = 0; j < k->nparams; j++) {
      const ggi_param *kp = &k->params[j];
      if (st->bind[j] == p && kp->kind == GG_PARAM_VIEW && kp->halo > 0 && st->chunk > 0 &&
          kp->halo > st->chunk) {
        *out = kp;
        return stages[i];
      }
    }
  }
  return -1;
}

/* The dependency of stage s on stage r through view p, in words. */
static const char *dep_words(const ggi_module *m, const ggi_kernel *fr, int r, int s, int p,
                             int where)
{
  const char *vs = "", *vr = "";
  conflict(fr, r, s, p, &vs, &vr);
  ggi_buf b = {0};
  if (where == DEP_THREAD)
    ggi_buf_printf(&b, "stage %d %s %s only at the index stage %d (%s) %s it: same thread, no "
                       "barrier", s, vs, fr->params[p].name, r, stage_kernel(fr, r)->name,
                   strcmp(vr, "reads") == 0 ? "read" : "wrote");
  else if (where == DEP_BLOCK)
    ggi_buf_printf(&b, "stage %d %s %s only in the league items stage %d (%s) %s in the same "
                       "(pseudo-)block: a block barrier orders them, no grid barrier", s, vs,
                   fr->params[p].name, r, stage_kernel(fr, r)->name,
                   strcmp(vr, "reads") == 0 ? "read" : "wrote");
  else if (where == DEP_NEIGHBOUR) {
    const ggi_stage *st = &fr->frame->stages[s];
    int halo = 0;
    same_neighbours(fr, r, s, p, &halo);
    ggi_buf_printf(&b, "stage %d %s %s, which stage %d (%s) %s, each at its own index or within "
                       "halo %d of it, and %d <= the chunk of %lld indices a (pseudo-)block takes "
                       "per step (%d threads x vector %d): only blocks b - 1, b and b + 1 share "
                       "them, so it waits for its two neighbours, no grid barrier", s, vs,
                   fr->params[p].name, r, stage_kernel(fr, r)->name, vr, halo, halo,
                   (long long)st->chunk, fr->frame->threads, stage_kernel(fr, s)->spec.vector);
  } else {
    ggi_buf_printf(&b, "%s %s, which stage %d (%s) %s", vs, fr->params[p].name, r,
                   stage_kernel(fr, r)->name, vr);
    const ggi_param *kp = NULL;
    const int h = halo_past_chunk(fr, r, s, p, &kp);
    if (h >= 0)
      ggi_buf_printf(&b, "; stage %d's view %s declares halo %d, more than the chunk of %lld "
                         "indices a (pseudo-)block takes per step (%d threads x vector %d), so "
                         "waiting for the neighbour blocks would not cover it",
                     h, kp->name, kp->halo, (long long)fr->frame->stages[h].chunk,
                     fr->frame->threads, stage_kernel(fr, h)->spec.vector);
  }
  const char *w = b.p ? ggi_strdup(m->arena, b.p) : NULL;
  ggi_buf_free(&b);
  return w;
}

static int uses_shared(const ggi_kernel *k, unsigned target)
{
  const ggi_plan *p = ggi_plan_of(k, target);
  return p && p->shared_bytes > 0;
}

/* The space through which the frame writes view p for the host to see:
 * the frame parameter's, or a stage kernel's own declaration of a view it
 * writes there (a stage may say space = "mapped" for a frame view left at
 * device); GG_SPACE_DEVICE when no write is host-visible. */
static gg_space host_visible_write(const ggi_kernel *fr, int p)
{
  const ggi_param *fp = &fr->params[p];
  if (fp->kind != GG_PARAM_VIEW) return GG_SPACE_DEVICE;
  for (int s = 0; s < fr->frame->nstages; s++) {
    const ggi_kernel *k = stage_kernel(fr, s);
    for (int j = 0; j < k->nparams; j++)
      if (fr->frame->stages[s].bind[j] == p && k->params[j].kind == GG_PARAM_VIEW &&
          writes(k->params[j].access)) {
        if (fp->space != GG_SPACE_DEVICE) return fp->space;
        if (k->params[j].space != GG_SPACE_DEVICE) return k->params[j].space;
      }
  }
  return GG_SPACE_DEVICE;
}

/* Whether stage s ends with a reduction's store(), which leaves a note of
 * its value (gg_result_note, prelude): reduce, and team or fft with into.
 * (scan and tile_reduce write their outputs otherwise.) */
static int stage_notes(const ggi_kernel *fr, int s)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  return k->into && (k->pattern == GG_PATTERN_REDUCE || k->pattern == GG_PATTERN_TEAM ||
                     k->pattern == GG_PATTERN_FFT);
}

/* Whether the ack may take the result from the note its writer leaves in
 * shared memory: only when ONE stage writes the result, through the
 * store() of its `into` - a reduction's last write - and no later stage
 * stores a note of its own over it.  Whether the note is there at run
 * time (this block stored it, in this frame) the kernel checks; otherwise
 * it reads the result from memory.  Returns 0, or the writer stage + 1. */
static int result_noted(const ggi_kernel *fr)
{
  const ggi_frame *f = fr->frame;
  int writer = -1;
  for (int s = 0; s < f->nstages; s++)
    if (use_of(fr, s, f->result) & 2) {
      if (writer >= 0) return 0;
      writer = s;
    }
  if (!stage_notes(fr, writer)) return 0;
  for (int s = writer + 1; s < f->nstages; s++)
    if (stage_notes(fr, s)) return 0;
  const ggi_kernel *k = stage_kernel(fr, writer);
  for (int j = 0; j < k->nparams; j++)
    if (f->stages[writer].bind[j] == f->result && strcmp(k->params[j].name, k->into) == 0)
      return writer + 1;
  return 0;
}

/* How the frame's acknowledgement is stored (gg_protocol.h): without the
 * system-scope release (~0.6 us on an H100) only when a result rides in
 * it and nothing else the frame writes is for the host - every other
 * written view is declared in device memory (the runtime refuses a
 * host-visible array passed for one of them). */
static int ack_plan(const ggi_module *m, ggi_kernel *fr, ggi_diag *d)
{
  ggi_frame *f = fr->frame;
  f->ack_relaxed = 0;
  f->ack_noted = 0;
  if (f->result < 0) {
    f->ack_why = "release at system scope: no result";
    return 0;
  }
  int written = 0;
  for (int s = 0; s < f->nstages; s++) written |= use_of(fr, s, f->result) & 2;
  if (!written)
    return ggi_fail_at(d, m->file, f->result_line, "frame \"%s\": field 'result' = \"%s\": no stage "
                       "writes \"%s\"; the result must be written by a stage of the frame", fr->name,
                       fr->params[f->result].name, fr->params[f->result].name);
  f->ack_noted = result_noted(fr);
  for (int p = 0; p < fr->nparams; p++) {
    const ggi_param *fp = &fr->params[p];
    gg_space space = host_visible_write(fr, p);
    if (p == f->result || space == GG_SPACE_DEVICE) continue;
    ggi_buf b = {0};
    ggi_buf_printf(&b, "release at system scope: the frame writes %s (space \"%s\"), which the host "
                   "may read after the wait", fp->name, ggi_space_names[space]);
    f->ack_why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
    ggi_buf_free(&b);
    return f->ack_why ? 0 : ggi_fail_at(d, m->file, fr->line, "out of memory");
  }
  f->ack_relaxed = 1;
  f->ack_why = "relaxed, no fence: the result is all the host reads (every other written view "
               "is in device memory)";
  return 0;
}

/* The fewest threads per (pseudo-)block among the persistent kernels
 * that run frame fr, and why: every stage's chunk is sized for it (more
 * threads give larger chunks, which the same halo fits).  0 when none
 * runs it, or one's shape is invalid (its plan reports that). */
static int frame_threads(const ggi_module *m, ggi_kernel *fr)
{
  ggi_frame *f = fr->frame;
  const int index = (int)(fr - m->kernels);
  const char *from = NULL;
  int runs = 0;
  f->threads = 0;
  f->threads_why = "no persistent kernel runs it";
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    for (int c = 0; c < p->ncommands; c++) {
      if (p->command_index[c] != index) continue;
      int t = ggi_persistent_group_threads(m, p);
      if (t <= 0) {
        f->threads = 0;
        return 0;
      }
      if (!runs++ || t < f->threads) f->threads = t, from = p->name;
      break;
    }
  }
  if (!runs) return 0;
  ggi_buf b = {0};
  ggi_buf_printf(&b, "%d threads per (pseudo-)block: persistent \"%s\"'s, the fewest of the %d "
                     "persistent kernel(s) that run it", f->threads, from, runs);
  f->threads_why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
  ggi_buf_free(&b);
  return f->threads_why ? 0 : -1;
}

/* Each stage's chunk (see "neighbouring (pseudo-)blocks" above): decided
 * here once, read by the dependency proof and explain. */
static void plan_chunks(ggi_kernel *fr)
{
  ggi_frame *f = fr->frame;
  for (int s = 0; s < f->nstages; s++) {
    const ggi_kernel *k = stage_kernel(fr, s);
    f->stages[s].chunk = k->pattern == GG_PATTERN_FOR && k->rank == 1 && f->threads > 0
                             ? (int64_t)f->threads * k->spec.vector
                             : 0;
  }
}

/* ---- halo exchange in tagged words ----
 * A neighbour wait costs four trips to L2 on the critical path (the
 * block's stores drained by a release, the flag's store, the neighbours'
 * polls, then the reload of their data).  Where a stage s reads frame
 * view p within a halo, and the latest stage w since the last grid
 * barrier that writes p does so at its own index on the same mapping
 * (so w is a neighbour dependency of s), w also publishes the first and
 * last H indices of each chunk it runs, value and frame tag in one
 * 64-bit word each (templates/global/halo_exchange.cuh), and s takes the
 * elements of its neighbour chunks from there: the poll returns the data
 * itself.  What the publication holds is what memory holds after w (it
 * is read back in the thread that owns the index, the only one that
 * writes it), so it also serves readers after other writers before w.
 * s then needs its neighbour wait only where a cross-block hazard is
 * left; between two stages r < s that are neighbours through view p:
 *   (a) s reads p's halo and r writes p: carried when every halo read of
 *       p by s comes from a publication;
 *   (b) s writes p and r read p's halo: carried when r read it from a
 *       publication (it then read no other block's memory of p; what it
 *       read of its own chunk, the block barrier orders);
 * anything else between them stays in a thread or in a block.  A stage
 * whose every such dependency is carried becomes GGI_SYNC_HALO: a block
 * barrier while the frame exchanges halos, its neighbour wait otherwise.
 * The slots of a publication are sized here once (GGI_FRAME_XCHG_STEPS
 * steps' chunks per (pseudo-)block, frame.h says why so few); whether a
 * frame's ranges fit them is known only at
 * run time, so the frame checks it once at its start for every
 * publication (gg_xchg_fits) and, when one does not fit, publishes
 * nothing, reads memory and waits for neighbours as before. */

/* Does stage s read frame view p beyond its own index (a halo view)?
 * With from_memory, only such reads that come from no publication count. */
static int halo_reads(const ggi_kernel *fr, int s, int p, int from_memory)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++)
    if (st->bind[j] == p && k->params[j].kind == GG_PARAM_VIEW && k->params[j].halo > 0 &&
        !ggi_body_own_index(k, &k->params[j]) && (!from_memory || st->xchg[j].src < 0))
      return 1;
  return 0;
}

/* The param of stage w that writes frame view p and may publish it
 * (plan.c: own index, contiguous), or -1: none, or another param writes p
 * in a way a publication cannot follow. */
static int publisher_param(const ggi_kernel *fr, int w, int p)
{
  const ggi_kernel *k = stage_kernel(fr, w);
  int found = -1;
  for (int j = 0; j < k->nparams; j++) {
    if (fr->frame->stages[w].bind[j] != p || k->params[j].kind != GG_PARAM_VIEW ||
        !writes(k->params[j].access))
      continue;
    if (k->params[j].exchange != GGI_XCHG_PUBLISH) return -1;
    if (found < 0) found = j;
  }
  return found;
}

/* Stage s's halo reads: each from the publication of the latest writer
 * since s's fence, where it can publish. */
static void find_sources(const ggi_kernel *fr, int s, int fence)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    const int p = st->bind[j];
    if (p < 0 || kp->exchange != GGI_XCHG_READ || ggi_body_own_index(k, kp)) continue;
    int w = s - 1;
    while (w >= fence && !(use_of(fr, w, p) & 2)) w--;
    /* a stage fused into a reduction runs in the fold's loop: no chunks */
    if (w < fence || !same_mapping(fr, w, s) || fr->frame->stages[w + 1].fused) continue;
    const int wj = publisher_param(fr, w, p);
    if (wj < 0) continue;
    st->xchg[j].src = w;
    st->xchg[j].src_param = wj;
    ggi_xchg *pub = &fr->frame->stages[w].xchg[wj];
    if (kp->halo > pub->pub_h) pub->pub_h = kp->halo;
  }
}

/* Slots for each publication: GGI_FRAME_XCHG_STEPS chunks per
 * (pseudo-)block, fewer where they would take more than
 * GGI_FRAME_XCHG_BYTES; one whose chunk edges do not fit that even once
 * is dropped with its readers. */
static void size_publications(const ggi_kernel *fr)
{
  ggi_frame *f = fr->frame;
  f->npublished = 0;
  for (int w = 0; w < f->nstages; w++) {
    const ggi_kernel *k = stage_kernel(fr, w);
    for (int j = 0; j < k->nparams; j++) {
      ggi_xchg *pub = &f->stages[w].xchg[j];
      if (pub->pub_h == 0) continue;
      pub->pub_chunks = (int)(GGI_FRAME_XCHG_BYTES / ggi_frame_xchg_chunk_bytes(fr, w, j));
      if (pub->pub_chunks > GGI_FRAME_XCHG_STEPS) pub->pub_chunks = GGI_FRAME_XCHG_STEPS;
      if (pub->pub_chunks > 0) {
        f->npublished++;
        continue;
      }
      pub->pub_h = 0;
      for (int s = w + 1; s < f->nstages; s++)
        for (int i = 0; i < stage_kernel(fr, s)->nparams; i++)
          if (f->stages[s].xchg[i].src == w && f->stages[s].xchg[i].src_param == j)
            f->stages[s].xchg[i].src = f->stages[s].xchg[i].src_param = -1;
    }
  }
}

/* Are all of neighbour-wait stage s's dependencies on stages from
 * `from` on carried by publications ((a) and (b) above)?  0: no; 1: yes;
 * 2: there is none to carry - its dependencies on its neighbours all lie
 * before `from`, which an earlier neighbour wait (or the grid barrier)
 * already ordered, and those since stay in each thread. */
static int exchange_carries(const ggi_kernel *fr, int s, int from)
{
  int carried = 0;
  for (int r = from; r < s; r++)
    for (int p = 0; p < fr->nparams; p++) {
      const char *vs, *vr;
      int halo;
      if (!conflict(fr, r, s, p, &vs, &vr) || same_thread(fr, r, s, p)) continue;
      if (!same_neighbours(fr, r, s, p, &halo)) return 0;
      if ((use_of(fr, r, p) & 2) && halo_reads(fr, s, p, 0)) {
        if (halo_reads(fr, s, p, 1)) return 0;
        carried = 1;
      }
      if ((use_of(fr, s, p) & 2) && halo_reads(fr, r, p, 0)) {
        if (halo_reads(fr, r, p, 1)) return 0;
        carried = 1;
      }
    }
  return carried ? 1 : 2;
}

unsigned ggi_frame_xchg_chunk_bytes(const ggi_kernel *fr, int w, int j)
{
  const ggi_param *kp = &stage_kernel(fr, w)->params[j];
  return 2u * (unsigned)fr->frame->stages[w].xchg[j].pub_h * 8u *
         ((ggi_dtype_size(kp->dtype) + 3u) / 4u);
}

/* The exchange's part of the plan, after the barriers: which halo reads
 * come from publications, the publications' slots, and which neighbour
 * waits become HALO stages.  fence_of[s]: the first stage s may depend
 * on without a barrier of its own (s itself when it has one). */
static int plan_exchange(const ggi_module *m, ggi_kernel *fr, const int *fence_of, ggi_diag *d)
{
  ggi_frame *f = fr->frame;
  for (int s = 0; s < f->nstages; s++) {
    const int n = stage_kernel(fr, s)->nparams;
    f->stages[s].xchg = ggi_alloc(m->arena, sizeof(ggi_xchg) * (size_t)(n > 0 ? n : 1));
    if (!f->stages[s].xchg) return ggi_fail_at(d, m->file, fr->line, "out of memory");
    for (int j = 0; j < n; j++) f->stages[s].xchg[j].src = f->stages[s].xchg[j].src_param = -1;
  }
  for (int s = 0; s < f->nstages; s++) find_sources(fr, s, fence_of[s]);
  size_publications(fr);
  for (int s = 0; s < f->nstages; s++) { /* the stage kernels' sources take part */
    ggi_kernel *k = &m->kernels[f->stages[s].kernel_index];
    for (int j = 0; j < k->nparams; j++) {
      if (f->stages[s].xchg[j].src >= 0) k->params[j].exchanged |= GGI_XCHG_READ;
      if (f->stages[s].xchg[j].pub_h > 0) k->params[j].exchanged |= GGI_XCHG_PUBLISH;
    }
  }
  int waited = 0; /* the latest stage that always waits for its neighbours (or 0) */
  for (int s = 0; s < f->nstages; s++) {
    ggi_stage *st = &f->stages[s];
    if (st->block_sync != GGI_SYNC_NEIGHBOURS) continue;
    /* a neighbour wait before stage t leaves the neighbours done with
       every stage before t; a grid barrier, everybody */
    const int from = waited > fence_of[s] ? waited : fence_of[s];
    const int carries = exchange_carries(fr, s, from);
    if (carries == 0) {
      waited = s;
      continue;
    }
    if (carries == 2) { /* a block barrier, exchange or not */
      st->block_sync = GGI_SYNC_ORDERED;
      f->nneighbours--;
      ggi_buf b = {0};
      ggi_buf_printf(&b, "%s; but those neighbour dependencies are on stages before %d, which "
                         "the %s before stage %d ordered, and its dependencies on the stages "
                         "since stay in each thread: a block barrier suffices", st->why, from,
                     from == fence_of[s] ? "grid barrier" : "neighbour wait", from);
      st->why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
      ggi_buf_free(&b);
      if (!st->why) return ggi_fail_at(d, m->file, fr->line, "out of memory");
      continue;
    }
    st->block_sync = GGI_SYNC_HALO;
    ggi_buf b = {0};
    ggi_buf_printf(&b, "%s; the halo elements it reads of its neighbours' chunks, and those "
                       "earlier stages read of what it writes, travel in tagged words (halo "
                       "exchange): a block barrier suffices (the neighbour wait when the "
                       "frame's ranges outgrow the slots)", st->why);
    st->why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
    ggi_buf_free(&b);
    if (!st->why) return ggi_fail_at(d, m->file, fr->line, "out of memory");
  }
  return 0;
}

int ggi_frame_schedule(const ggi_module *m, ggi_kernel *fr, ggi_diag *d)
{
  ggi_frame *f = fr->frame;
  unsigned target = ggi_desc_target(fr->targets);
  int fence = 0;      /* first stage not yet ordered by a grid barrier */
  int shared_since = -1; /* a stage since the last block-wide sync that used shared memory */
  int fence_of[GGI_MAX_STAGES];
  f->nbarriers = f->nneighbours = 0;
  if (frame_threads(m, fr) != 0) return ggi_fail_at(d, m->file, fr->line, "out of memory");
  plan_chunks(fr);
  for (int s = 0; s < f->nstages; s++) {
    ggi_stage *st = &f->stages[s];
    st->barrier = st->block_sync = 0;
    st->after = -1;
    st->why = NULL;
    /* The latest earlier stage it depends on across threads decides: a
       barrier is needed when that stage is not yet behind one.  Stages
       since the last barrier that it depends on only within each thread
       (same_thread) need none.  A reduction fuses with the for stage
       before it only where nothing else makes it wait. */
    st->fused = 0;
    ggi_deps x = find_deps(fr, s, fence, 0);
    st->fused = fusable(fr, s); /* same_mapping reads it: the fold's mapping */
    if (st->fused) {
      const ggi_deps y = find_deps(fr, s, fence, 1);
      if ((y.dep >= fence && y.dep >= 0) || y.item >= 0 || y.near >= 0) st->fused = 0;
      else x = y;
    }
    const int dep = x.dep, dep_view = x.dep_view, local = x.local, local_view = x.local_view;
    const int item = x.item, item_view = x.item_view, near = x.near, near_view = x.near_view;
    if (dep >= fence && dep >= 0) {
      st->barrier = 1;
      st->after = dep;
      f->nbarriers++;
      fence = s;
      shared_since = -1; /* a grid barrier syncs every block */
      st->why = dep_words(m, fr, dep, s, dep_view, DEP_GRID);
    } else if (item >= 0) {
      st->block_sync = GGI_SYNC_ITEMS;
      st->after = item;
      shared_since = -1; /* and it orders shared memory too */
      st->why = dep_words(m, fr, item, s, item_view, DEP_BLOCK);
    } else if (near >= 0) {
      /* item and near never meet: one needs team or fft stages, the other for */
      st->block_sync = GGI_SYNC_NEIGHBOURS;
      st->after = near;
      f->nneighbours++;
      shared_since = -1; /* it syncs the (pseudo-)block too */
      st->why = dep_words(m, fr, near, s, near_view, DEP_NEIGHBOUR);
    } else if (st->fused) {
      st->after = s - 1;
      ggi_buf b = {0};
      ggi_buf_printf(&b, "fused: stage %d's for body (%s) runs inside this reduction's fold, at "
                         "each index just before the fold reads the index's value, in the same "
                         "thread: no barrier, and what it stores there is taken from registers, "
                         "not read back from memory", s - 1, stage_kernel(fr, s - 1)->name);
      st->why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
      ggi_buf_free(&b);
    } else if (local >= 0) {
      st->after = local;
      st->why = dep_words(m, fr, local, s, local_view, DEP_THREAD);
    } else if (dep >= 0) {
      st->after = dep;
      const char *why = dep_words(m, fr, dep, s, dep_view, DEP_GRID);
      ggi_buf b = {0};
      ggi_buf_printf(&b, "starts at once: it %s, already ordered by the grid barrier before stage %d",
                     why ? why : "depends on an earlier stage", fence);
      st->why = b.p && why ? ggi_strdup(m->arena, b.p) : NULL;
      ggi_buf_free(&b);
    } else {
      st->why = s == 0 ? "starts at once: the first stage"
                       : "starts at once: no earlier stage writes what it reads or touches what "
                         "it writes";
    }
    int sh = uses_shared(stage_kernel(fr, s), target);
    if (!st->barrier && sh && shared_since >= 0) {
      /* the (pseudo-)block's dynamic shared memory is one buffer: a warp
         must not start filling it for this stage while another still reads
         it for an earlier one */
      st->block_sync = GGI_SYNC_SHARED;
      shared_since = -1;
    }
    if (sh) shared_since = s;
    if (!st->why) return ggi_fail_at(d, m->file, fr->line, "out of memory");
    fence_of[s] = fence;
  }
  if (plan_exchange(m, fr, fence_of, d) != 0) return -1;
  return ack_plan(m, fr, d);
}

static uint32_t round_up(uint64_t x, uint32_t a) { return (uint32_t)((x + a - 1) / a * a); }

int ggi_frame_plan(const ggi_kernel *fr, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  const ggi_frame *f = fr->frame;
  memset(p, 0, sizeof *p);
  p->template_path = "";
  p->grid_rule = GG_GRID_RESIDENT;
  uint64_t fixed = 0, per_block = 0;
  int ws = 0, min_from = -1, max_from = -1;
  for (int s = 0; s < f->nstages; s++) {
    const ggi_kernel *k = stage_kernel(fr, s);
    const ggi_plan *spp = ggi_plan_of(k, target);
    if (!spp) return ggi_fail(d, "stage %d: kernel '%s' does not target %s", s, k->name,
                              target == GGI_TARGET_HIP ? "hip" : "cuda");
    const ggi_plan sp = *spp;
    if (sp.shared_bytes > p->shared_bytes) p->shared_bytes = sp.shared_bytes;
    p->features |= sp.features;
    p->whole_block |= sp.whole_block;
    p->needs_seq |= sp.needs_seq;
    if (sp.min_threads > p->min_threads) {
      p->min_threads = sp.min_threads;
      min_from = s;
    }
    if (sp.max_threads > 0 && (p->max_threads == 0 || sp.max_threads < p->max_threads)) {
      p->max_threads = sp.max_threads;
      max_from = s;
    }
    if (sp.ws_fixed || sp.ws_per_block) {
      ws = 1;
      /* the device rounds each stage's share up to GGI_FRAME_WS_ALIGN */
      fixed += (uint64_t)sp.ws_fixed + GGI_FRAME_WS_ALIGN - 1;
      per_block += sp.ws_per_block;
    }
  }
  if (p->max_threads > 0 && p->min_threads > p->max_threads) {
    const ggi_plan *lo = ggi_plan_of(stage_kernel(fr, min_from), target);
    const ggi_plan *hi = ggi_plan_of(stage_kernel(fr, max_from), target);
    return ggi_fail(d, "stage %d (%s) runs on %s %d threads a block, stage %d (%s) on %s %d: no "
                       "block runs both; give the stages one thread count (a gemm's or fft's "
                       "block, a team's team_size, the block of the others)",
                    min_from, stage_kernel(fr, min_from)->name,
                    ggi_plan_exact(lo) ? "exactly" : "at least", p->min_threads, max_from,
                    stage_kernel(fr, max_from)->name,
                    ggi_plan_exact(hi) ? "exactly" : "at most", p->max_threads);
  }
  if (ws || f->nbarriers > 0 || f->nneighbours > 0) fixed += GGI_FRAME_WS_HEAD;
  if (f->nneighbours > 0) per_block += GGI_FRAME_PROGRESS_BYTES; /* progress words */
  for (int w = 0; w < f->nstages; w++) /* publications' slots, each from a 256-byte boundary */
    for (int j = 0; j < stage_kernel(fr, w)->nparams; j++)
      if (f->stages[w].xchg[j].pub_h > 0) {
        fixed += GGI_FRAME_WS_ALIGN - 1;
        per_block += (uint64_t)f->stages[w].xchg[j].pub_chunks * ggi_frame_xchg_chunk_bytes(fr, w, j);
        p->needs_seq = 1; /* the frame's tag */
      }
  if (fixed > UINT32_MAX / 2 || per_block > UINT32_MAX / 2)
    return ggi_fail(d, "the stages' workspaces add up to more than 2 GiB");
  p->ws_fixed = (uint32_t)fixed;
  p->ws_per_block = (uint32_t)per_block;
  (void)round_up;
  return 0;
}

static const char *ctype(gg_dtype t)
{
  static const char *const names[] = {"int", "unsigned", "long long", "unsigned long long",
                                      "float", "double", "gg_f16", "gg_bf16"};
  return (unsigned)t < 8 ? names[t] : "void";
}

static const char *dict_value(const ggi_dict *dict, const char *key)
{
  for (int i = 0; i < dict->n; i++)
    if (strcmp(dict->keys[i], key) == 0) return dict->values[i];
  return "";
}

static void put_extent(ggi_buf *b, ggi_extent e)
{
  if (e.name) ggi_buf_printf(b, "args.%s", e.name);
  else ggi_buf_printf(b, "%lldLL", (long long)e.value);
}

/* The number of indices of rank-1 stage s's range, as the frame's
 * device function sees it. */
static void put_stage_work(ggi_buf *b, const ggi_kernel *fr, int s)
{
  const ggi_kernel *k = stage_kernel(fr, s);
  const ggi_extent e = k->range[0];
  for (int j = 0; e.name && j < k->nextents; j++)
    if (strcmp(k->extents[j], e.name) == 0) {
      ggi_buf_puts(b, "(long long)");
      put_extent(b, fr->frame->stages[s].ext[j]);
      return;
    }
  put_extent(b, e);
}

/* Stage s's body while the frame exchanges halos (gg_xchg): the for
 * template's exchange overload with its gg_io - a publication's slots per
 * view it publishes, the source's per halo view it reads from one - and
 * the plain body otherwise.  0 when the stage takes no part. */
static int put_stage_io(const ggi_kernel *fr, int s, ggi_buf *b)
{
  const ggi_stage *st = &fr->frame->stages[s];
  const ggi_kernel *k = stage_kernel(fr, s);
  int any = 0;
  for (int j = 0; j < k->nparams; j++) {
    const ggi_xchg *x = &st->xchg[j];
    if (x->pub_h == 0 && x->src < 0) continue;
    if (!any++) ggi_buf_printf(b, "    if (gg_xchg) {\n      " GGI_NS_PREFIX "%s::gg_io_t gg_io;\n", k->name);
    if (x->pub_h > 0)
      ggi_buf_printf(b, "      gg_io.%s = gg_xchg_pub_of(gg_pub%d_%d, %dLL, gg_tag);\n",
                     k->params[j].name, s, j, x->pub_h);
    if (x->src >= 0) {
      ggi_buf_printf(b, "      gg_io.%s = gg_xchg_rd_of(gg_pub%d_%d, %dLL, ", k->params[j].name,
                     x->src, x->src_param, fr->frame->stages[x->src].xchg[x->src_param].pub_h);
      put_stage_work(b, fr, s);
      ggi_buf_puts(b, ", gg_tag, gg_mbox);\n");
    }
  }
  if (any)
    ggi_buf_printf(b, "      " GGI_NS_PREFIX "%s::gg_body(gg_a, g, gg_io);\n    } else {\n"
                      "      " GGI_NS_PREFIX "%s::gg_body(gg_a, g);\n    }\n", k->name, k->name);
  return any;
}

/* The frame's publications' slots, one after the other in its workspace,
 * and the switch every stage reads: halos travel in tagged words when
 * there are several (pseudo-)blocks and every publication's range fits
 * its slots this frame. */
static void put_exchange(const ggi_kernel *fr, ggi_buf *b)
{
  const ggi_frame *f = fr->frame;
  int halo = 0;
  for (int s = 0; s < f->nstages; s++) halo |= f->stages[s].block_sync == GGI_SYNC_HALO;
  if (!halo && f->npublished == 0) return;
  if (f->npublished > 0)
    ggi_buf_puts(b, "  const unsigned gg_tag = args.gg_seq; /* this frame's: the publications' tag */\n");
  ggi_buf c = {0};
  for (int w = 0; w < f->nstages; w++) {
    const ggi_kernel *k = stage_kernel(fr, w);
    for (int j = 0; j < k->nparams; j++) {
      const ggi_xchg *x = &f->stages[w].xchg[j];
      if (x->pub_h == 0) continue;
      ggi_buf_printf(b, "  unsigned long long *gg_pub%d_%d = (unsigned long long *)(gg_ws + gg_off); "
                        "/* stage %d's %s */\n  gg_off += (%lluull * g.nblocks + %uu) / %uu * %uu;\n",
                     w, j, w, k->params[j].name,
                     (unsigned long long)x->pub_chunks * ggi_frame_xchg_chunk_bytes(fr, w, j),
                     GGI_FRAME_WS_ALIGN - 1, GGI_FRAME_WS_ALIGN, GGI_FRAME_WS_ALIGN);
      ggi_buf_puts(&c, " &&\n      gg_xchg_fits(");
      put_stage_work(&c, fr, w);
      ggi_buf_printf(&c, ", (long long)g.nthreads * %d, %d, g.nblocks)", k->spec.vector,
                     x->pub_chunks);
    }
  }
  ggi_buf_printf(b, "  const bool gg_xchg = g.nblocks > 1%s; /* halos in tagged words */\n",
                 c.p ? c.p : "");
  ggi_buf_free(&c);
}

/* `name.field = value;` for every field of stage s's argument struct. */
static void put_args(const ggi_kernel *fr, int s, const ggi_plan *sp, const char *name, ggi_buf *b)
{
  const ggi_stage *st = &fr->frame->stages[s];
  const ggi_kernel *k = stage_kernel(fr, s);
  ggi_buf_printf(b, "    gg_args_%s %s;\n", k->name, name);
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (st->constant[j])
      ggi_buf_printf(b, "    %s.%s = (%s)(%s);\n", name, kp->name, ctype(kp->dtype), st->constant[j]);
    else
      ggi_buf_printf(b, "    %s.%s = args.%s;\n", name, kp->name, fr->params[st->bind[j]].name);
  }
  for (int j = 0; j < k->nextents; j++) {
    ggi_buf_printf(b, "    %s.%s = ", name, k->extents[j]);
    put_extent(b, st->ext[j]);
    ggi_buf_puts(b, ";\n");
  }
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (kp->kind != GG_PARAM_VIEW || kp->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < kp->rank; dim++)
      ggi_buf_printf(b, "    %s.%s_s%d = args.%s_s%d;\n", name, kp->name, dim,
                     fr->params[st->bind[j]].name, dim);
  }
  if (sp->ws_fixed || sp->ws_per_block) {
    ggi_buf_printf(b, "    %s.gg_ws = gg_ws + gg_off;\n"
                      "    gg_off += (%uull + %uull * g.nblocks + %uu) / %uu * %uu;\n",
                   name, (unsigned)sp->ws_fixed, (unsigned)sp->ws_per_block, GGI_FRAME_WS_ALIGN - 1,
                   GGI_FRAME_WS_ALIGN, GGI_FRAME_WS_ALIGN);
  }
  if (sp->needs_seq) ggi_buf_printf(b, "    %s.gg_seq = args.gg_seq;\n", name);
}

/* Stage s: what it waits for, then its body on the virtual grid.  A for
 * stage fused into the reduction after it (stages[s + 1].fused) only
 * waits here; the reduction's fold runs its body index by index (pre). */
static int put_stage(const ggi_module *m, const ggi_kernel *fr, int s, unsigned target,
                     ggi_buf *b, ggi_diag *d)
{
  const ggi_frame *f = fr->frame;
  const ggi_stage *st = &f->stages[s];
  const ggi_kernel *k = stage_kernel(fr, s);
  const ggi_plan *spp = ggi_plan_of(k, target);
  if (!spp) return ggi_fail_at(d, m->file, st->line, "stage %d: kernel '%s' has no plan", s, k->name);
  ggi_buf_printf(b, "  /* stage %d: %s (%s:%d): %s */\n", s, k->name, m->file ? m->file : "?",
                 st->line, st->why);
  if (st->barrier)
    ggi_buf_puts(b, "  if (!gg_frame_barrier(gg_b, gg_ws, gg_mbox))\n    return false;\n");
  else if (st->block_sync == GGI_SYNC_NEIGHBOURS)
    ggi_buf_puts(b, "  if (!gg_fn_wait_neighbours(gg_n, g, gg_mbox)) /* b - 1 and b + 1 are done */\n"
                    "    return false;\n");
  else if (st->block_sync == GGI_SYNC_HALO)
    ggi_buf_puts(b, "  if (gg_xchg)\n    gg_sync(g); /* its own chunk; the neighbours' come in tagged words */\n"
                    "  else if (!gg_fn_wait_neighbours(gg_n, g, gg_mbox)) /* b - 1 and b + 1 are done */\n"
                    "    return false;\n");
  else if (st->block_sync == GGI_SYNC_ITEMS)
    ggi_buf_puts(b, "  gg_sync(g); /* the block's own items: its writes before its reads */\n");
  else if (st->block_sync == GGI_SYNC_ORDERED)
    ggi_buf_puts(b, "  gg_sync(g); /* the neighbours: ordered by an earlier wait */\n");
  else if (st->block_sync)
    ggi_buf_puts(b, "  gg_sync(g); /* shared memory: the previous stage may still read it */\n");
  if (s + 1 < f->nstages && f->stages[s + 1].fused) return 0;
  ggi_buf_puts(b, "  {\n");
  if (st->fused) {
    const ggi_plan *pp = ggi_plan_of(stage_kernel(fr, s - 1), target);
    if (!pp) return ggi_fail_at(d, m->file, st->line, "stage %d has no plan", s - 1);
    put_args(fr, s - 1, pp, "gg_p", b);
  }
  put_args(fr, s, spp, "gg_a", b);
  if (st->fused)
    ggi_buf_printf(b, "    " GGI_NS_PREFIX "%s::gg_body(gg_a, g, gg_each_of([&](long long gg_i) { "
                      GGI_NS_PREFIX "%s::gg_at(gg_p, gg_i); }));\n",
                   k->name, stage_kernel(fr, s - 1)->name);
  else if (!put_stage_io(fr, s, b))
    ggi_buf_printf(b, "    " GGI_NS_PREFIX "%s::gg_body(gg_a, g);\n", k->name);
  ggi_buf_puts(b, "  }\n");
  return 0;
}

int ggi_emit_frame(const ggi_module *m, const ggi_kernel *fr, unsigned target,
                   const char *templates_dir, ggi_buf *out, ggi_diag *d)
{
  (void)templates_dir;
  const ggi_plan *pp = ggi_plan_of(fr, target);
  if (!pp) return ggi_fail_at(d, m->file, fr->line, "frame \"%s\" has no plan", fr->name);
  const ggi_plan plan = *pp;
  ggi_dict dict;
  if (ggi_kernel_dict(m, fr, target, &plan, &dict, d) != 0) return -1;
  int ws = plan.ws_fixed || plan.ws_per_block;
  ggi_buf_printf(out, "\n/* ==== frame %s (%s:%d): %d stage(s), %d grid barrier(s) ==== */\n",
                 fr->name, m->file ? m->file : "?", fr->line, fr->frame->nstages,
                 fr->frame->nbarriers);
  ggi_buf_printf(out, "struct gg_args_%s {\n%s};\n\n", fr->name, dict_value(&dict, "ARGS_FIELDS"));
  /* the frame's function in its own namespace, like a kernel's body (names.h) */
  ggi_buf_printf(out,
                 "namespace " GGI_NS_PREFIX "%s {\n\n"
                 "/* Runs every stage on the virtual grid g; a stage that depends on an\n"
                 " * earlier one waits at a grid barrier (the plan: gpugen explain). false:\n"
                 " * the host aborted the session during a barrier. */\n"
                 "__device__ bool gg_frame(const gg_args_%s &args, const gg_grid &g, "
                 "const char *gg_mbox)\n{\n",
                 fr->name, fr->name);
  /* [[maybe_unused]]: a frame with no workspace, barrier or exchange
     uses neither (nvcc warned "set but never used" despite the casts) */
  if (ws) ggi_buf_puts(out, "  [[maybe_unused]] char *gg_ws = (char *)args.gg_ws;\n");
  else ggi_buf_puts(out, "  [[maybe_unused]] char *gg_ws = 0;\n");
  if (fr->frame->nneighbours > 0)
    ggi_buf_printf(out, "  [[maybe_unused]] unsigned long long gg_off = %uu + %uull * g.nblocks; /* past "
                        "the barrier and progress words */\n", GGI_FRAME_WS_HEAD, GGI_FRAME_PROGRESS_BYTES);
  else
    ggi_buf_printf(out, "  [[maybe_unused]] unsigned long long gg_off = %uu; /* past the barrier words */\n",
                   GGI_FRAME_WS_HEAD);
  ggi_buf_puts(out, "  gg_frame_bar gg_b;\n  gg_fn_progress gg_n;\n");
  if (fr->frame->nbarriers > 0) ggi_buf_puts(out, "  gg_frame_bar_begin(gg_b, gg_ws);\n");
  if (fr->frame->nneighbours > 0)
    ggi_buf_printf(out, "  gg_fn_begin(gg_n, g, gg_ws + %uu, %uu);\n", GGI_FRAME_WS_HEAD,
                   GGI_FRAME_PROGRESS_BYTES);
  put_exchange(fr, out);
  ggi_buf_puts(out, "  (void)gg_b; (void)gg_n; (void)gg_mbox;\n");
  for (int s = 0; s < fr->frame->nstages; s++)
    if (put_stage(m, fr, s, target, out, d) != 0) return -1;
  ggi_buf_printf(out, "  return true;\n}\n\n} /* namespace " GGI_NS_PREFIX "%s */\n", fr->name);
  return ggi_buf_ok(out) ? 0 : ggi_fail(d, "out of memory rendering frame %s", fr->name);
}

void ggi_frame_summary(const ggi_kernel *fr, ggi_buf *b)
{
  ggi_buf_printf(b, "%d grid barrier(s)  stages:", fr->frame->nbarriers);
  for (int s = 0; s < fr->frame->nstages; s++) {
    const ggi_stage *st = &fr->frame->stages[s];
    ggi_buf_printf(b, " %s%s",
                   st->barrier                                                          ? "| "
                   : st->block_sync == GGI_SYNC_NEIGHBOURS || st->block_sync == GGI_SYNC_HALO ? "~ "
                   : st->fused                                                          ? "+ "
                                                                                        : "",
                   stage_kernel(fr, s)->name);
  }
}

void ggi_frame_explain(const ggi_module *m, const ggi_kernel *fr, FILE *out)
{
  const ggi_frame *f = fr->frame;
  fprintf(out, "frame %s (%s:%d): %d stage(s), %d grid barrier(s); a command of a persistent "
               "kernel, one handshake per frame\n",
          fr->name, m->file ? m->file : "?", fr->line, f->nstages, f->nbarriers);
  fprintf(out, "parameters:");
  for (int p = 0; p < fr->nparams; p++)
    fprintf(out, " %s%s%s%s", fr->params[p].name, fr->params[p].kind == GG_PARAM_VIEW ? " (" : "",
            fr->params[p].kind == GG_PARAM_VIEW ? ggi_access_name(fr->params[p].access) : "",
            fr->params[p].kind == GG_PARAM_VIEW ? ")" : "");
  fprintf(out, "\nstages:\n");
  for (int s = 0; s < f->nstages; s++) {
    const ggi_stage *st = &f->stages[s];
    const ggi_kernel *k = stage_kernel(fr, s);
    fprintf(out, "  %d %s (%s:%d)\n", s, k->name, m->file ? m->file : "?", st->line);
    if (st->barrier) fprintf(out, "      grid barrier before it: %s\n", st->why);
    else if (st->block_sync == GGI_SYNC_ITEMS || st->block_sync == GGI_SYNC_ORDERED)
      fprintf(out, "      block barrier before it: %s\n", st->why);
    else if (st->block_sync == GGI_SYNC_NEIGHBOURS)
      fprintf(out, "      neighbour wait before it: %s\n", st->why);
    else if (st->block_sync == GGI_SYNC_HALO)
      fprintf(out, "      halo exchange before it: %s\n", st->why);
    else if (st->fused)
      fprintf(out, "      %s\n", st->why);
    else fprintf(out, "      no barrier: %s\n", st->why);
    for (int j = 0; j < k->nparams; j++) {
      const ggi_xchg *x = &st->xchg[j];
      if (x->pub_h > 0)
        fprintf(out, "      publishes %s's chunk edges (%d indices at each end; slots for %d "
                     "grid-stride step(s) per pseudo-block, %u bytes a chunk)\n",
                fr->params[st->bind[j]].name,
                x->pub_h, x->pub_chunks, ggi_frame_xchg_chunk_bytes(fr, s, j));
      if (x->src >= 0)
        fprintf(out, "      reads %s's neighbour elements from stage %d's publication\n",
                fr->params[st->bind[j]].name, x->src);
    }
    if (st->block_sync == GGI_SYNC_SHARED)
      fprintf(out, "      block barrier before it: it reuses the block's shared memory of an "
                   "earlier stage\n");
    fprintf(out, "      binds:");
    for (int j = 0; j < k->nparams; j++) {
      if (st->constant[j]) fprintf(out, " %s=%s", k->params[j].name, st->constant[j]);
      else fprintf(out, " %s=%s", k->params[j].name, fr->params[st->bind[j]].name);
    }
    for (int j = 0; j < k->nextents; j++) {
      if (st->ext[j].name) fprintf(out, " %s=%s", k->extents[j], st->ext[j].name);
      else fprintf(out, " %s=%lld", k->extents[j], (long long)st->ext[j].value);
    }
    fprintf(out, "\n");
  }
  if (f->result >= 0)
    fprintf(out, "result: %s (%s, %u bytes) returns in the acknowledgement (gg_session_result); "
                 "ack %s\n", fr->params[f->result].name, ggi_dtype_name(fr->params[f->result].dtype),
            ggi_dtype_size(fr->params[f->result].dtype), f->ack_why);
  if (f->result >= 0 && f->ack_noted)
    fprintf(out, "result: stage %d's reduction is its only writer and leaves a note of %s in "
                 "shared memory: the ack takes the value from there (no read back from memory) "
                 "when that block acknowledges the frame\n", f->ack_noted - 1,
            fr->params[f->result].name);
  const ggi_plan *pp = ggi_plan_of(fr, ggi_desc_target(fr->targets));
  const ggi_plan p = pp ? *pp : (ggi_plan){0};
  int halo_stages = 0;
  for (int s = 0; s < f->nstages; s++) halo_stages += f->stages[s].block_sync == GGI_SYNC_HALO;
  if (f->nneighbours > 0)
    fprintf(out, "neighbour waits: %d per frame%s; chunks sized for %s\n", f->nneighbours,
            halo_stages ? " (those before a halo exchange only when the frame cannot exchange)" : "",
            f->threads_why);
  if (f->npublished > 0)
    fprintf(out, "halo exchange: %d publication(s), used in a frame when there are several "
                 "pseudo-blocks and every published range takes no more grid-stride steps than "
                 "its slots hold; else every stage above reads memory and waits for its "
                 "neighbours\n", f->npublished);
  if (pp)
    fprintf(out, "workspace: %u bytes + %u per pseudo-block of the persistent kernel's virtual "
                 "grid (barrier words, %s%sthen each stage's own)\nshared memory: %u bytes per "
                 "pseudo-block (the largest stage's)\n",
            (unsigned)p.ws_fixed, (unsigned)p.ws_per_block,
            f->nneighbours > 0 ? "a progress word per pseudo-block, " : "",
            f->npublished > 0 ? "the publications' slots, " : "", (unsigned)p.shared_bytes);
}
