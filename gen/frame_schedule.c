/*
 * frame_schedule.c - the schedule of a frame: where each stage waits for
 * earlier ones (a grid barrier, a block barrier, a neighbour wait, a
 * fusion, or nothing) and why, the chunk each rank-1 for stage takes, and
 * how the frame's acknowledgement is stored.
 *
 * Every decision about a frame is made here, once, in
 * ggi_frame_schedule(), and kept in the IR (ggi_stage, ggi_frame); the
 * plan (frame_plan.c), the rendered device function (frame_render.c),
 * `explain` and `list` (report_frame.c) only read it.  The proofs it
 * asks are frame_deps.c's; the halo exchange, frame_exchange.c's.
 */
#include "frame_deps.h"
#include "frame_exchange.h"
#include "names.h"
#include "patterns.h"
#include "plan.h"

#include <stdint.h>
#include <string.h>

enum { DEP_GRID, DEP_THREAD, DEP_BLOCK, DEP_NEIGHBOUR }; /* where a dependency is kept */

/* A param of stage r or s bound to view p that reads within a declared
 * halo larger than its stage's chunk: why neighbour waits cannot keep
 * that dependency (frame_deps.c: near_use).  Its stage, or -1. */
static int halo_past_chunk(const ggi_kernel *fr, int r, int s, int p, const ggi_param **out)
{
  const int stages[2] = {r, s};
  for (int i = 0; i < 2; i++) {
    const ggi_kernel *k = ggi_stage_kernel(fr, stages[i]);
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
  ggi_frame_conflict(fr, r, s, p, &vs, &vr);
  ggi_buf b = {0};
  if (where == DEP_THREAD)
    ggi_buf_printf(&b, "stage %d %s %s only at the index stage %d (%s) %s it: same thread, no "
                       "barrier", s, vs, fr->params[p].name, r, ggi_stage_kernel(fr, r)->name,
                   strcmp(vr, "reads") == 0 ? "read" : "wrote");
  else if (where == DEP_BLOCK)
    ggi_buf_printf(&b, "stage %d %s %s only in the league items stage %d (%s) %s in the same "
                       "(pseudo-)block: a block barrier orders them, no grid barrier", s, vs,
                   fr->params[p].name, r, ggi_stage_kernel(fr, r)->name,
                   strcmp(vr, "reads") == 0 ? "read" : "wrote");
  else if (where == DEP_NEIGHBOUR) {
    const ggi_stage *st = &fr->frame->stages[s];
    int halo = 0;
    ggi_frame_same_neighbours(fr, r, s, p, &halo);
    ggi_buf_printf(&b, "stage %d %s %s, which stage %d (%s) %s, each at its own index or within "
                       "halo %d of it, and %d <= the chunk of %lld indices a (pseudo-)block takes "
                       "per step (%d threads x vector %d): only blocks b - 1, b and b + 1 share "
                       "them, so it waits for its two neighbours, no grid barrier", s, vs,
                   fr->params[p].name, r, ggi_stage_kernel(fr, r)->name, vr, halo, halo,
                   (long long)st->chunk, fr->frame->threads, ggi_stage_kernel(fr, s)->spec.vector);
  } else {
    ggi_buf_printf(&b, "%s %s, which stage %d (%s) %s", vs, fr->params[p].name, r,
                   ggi_stage_kernel(fr, r)->name, vr);
    const ggi_param *kp = NULL;
    const int h = halo_past_chunk(fr, r, s, p, &kp);
    if (h >= 0)
      ggi_buf_printf(&b, "; stage %d's view %s declares halo %d, more than the chunk of %lld "
                         "indices a (pseudo-)block takes per step (%d threads x vector %d), so "
                         "waiting for the neighbour blocks would not cover it",
                     h, kp->name, kp->halo, (long long)fr->frame->stages[h].chunk,
                     fr->frame->threads, ggi_stage_kernel(fr, h)->spec.vector);
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
    const ggi_kernel *k = ggi_stage_kernel(fr, s);
    for (int j = 0; j < k->nparams; j++)
      if (fr->frame->stages[s].bind[j] == p && k->params[j].kind == GG_PARAM_VIEW &&
          ggi_access_writes(k->params[j].access)) {
        if (fp->space != GG_SPACE_DEVICE) return fp->space;
        if (k->params[j].space != GG_SPACE_DEVICE) return k->params[j].space;
      }
  }
  return GG_SPACE_DEVICE;
}

/* Whether stage s ends with a reduction's store(), which leaves a note
 * of its value (ggi_stage_notes). */
static int stage_notes(const ggi_kernel *fr, int s)
{
  return ggi_stage_notes(ggi_stage_kernel(fr, s));
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
    if (ggi_frame_use(fr, s, f->result) & 2) {
      if (writer >= 0) return 0;
      writer = s;
    }
  if (!stage_notes(fr, writer)) return 0;
  for (int s = writer + 1; s < f->nstages; s++)
    if (stage_notes(fr, s)) return 0;
  const ggi_kernel *k = ggi_stage_kernel(fr, writer);
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
  for (int s = 0; s < f->nstages; s++) written |= ggi_frame_use(fr, s, f->result) & 2;
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

/* Each stage's chunk (frame_deps.c, "neighbouring (pseudo-)blocks"): decided
 * here once, read by the dependency proof and explain. */
static void plan_chunks(ggi_kernel *fr)
{
  ggi_frame *f = fr->frame;
  for (int s = 0; s < f->nstages; s++) {
    const ggi_kernel *k = ggi_stage_kernel(fr, s);
    f->stages[s].chunk = ggi_stage_chunked(k) && f->threads > 0
                             ? (int64_t)f->threads * k->spec.vector
                             : 0;
  }
}

/* The frame's symmetric workspace (gpus = N): each exchange stage's area,
 * one after the other in stage order, each a multiple of
 * GG_FRAME_WS_ALIGN bytes (its pattern's sym_bytes). */
static void sym_layout(ggi_kernel *fr)
{
  ggi_frame *f = fr->frame;
  f->sym_bytes = 0;
  for (int s = 0; s < f->nstages; s++) {
    const ggi_kernel *k = ggi_stage_kernel(fr, s);
    const ggi_pattern_row *row = ggi_pattern_of(k->pattern);
    f->stages[s].sym_off = f->sym_bytes;
    if (row->sym_bytes) f->sym_bytes += row->sym_bytes(k);
  }
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
    ggi_deps x = ggi_frame_find_deps(fr, s, fence, 0);
    st->fused = ggi_frame_fusable(fr, s); /* same_mapping reads it: the fold's mapping */
    if (st->fused) {
      const ggi_deps y = ggi_frame_find_deps(fr, s, fence, 1);
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
                         "not read back from memory", s - 1, ggi_stage_kernel(fr, s - 1)->name);
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
    int sh = uses_shared(ggi_stage_kernel(fr, s), target);
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
  sym_layout(fr);
  if (ggi_frame_exchange(m, fr, fence_of, d) != 0) return -1;
  return ack_plan(m, fr, d);
}
