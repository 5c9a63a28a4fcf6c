/*
 * frame_render.c - the device function of a frame, from the templates
 * under templates/frame/: function.cuh is the function, and each stage
 * is its comment (stage.cuh), the wait the schedule chose (wait_*.cuh,
 * one piece per kind of wait: the table below) and its body's call
 * (run*.cuh).  Every choice here was made by the schedule
 * (frame_schedule.c) and the plan (frame_plan.c); this file only picks
 * the pieces they name and fills in their values.
 */
#include "frame.h"
#include "dict.h"
#include "names.h"
#include "patterns.h"
#include "render.h"
#include "source.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The piece that waits before a stage, by ggi_stage.block_sync (a grid
 * barrier, ggi_stage.barrier, is wait_grid.cuh). */
static const char *const wait_piece[] = {
  [0] = NULL,
  [GGI_SYNC_SHARED] = "frame/wait_shared.cuh",
  [GGI_SYNC_ITEMS] = "frame/wait_items.cuh",
  [GGI_SYNC_NEIGHBOURS] = "frame/wait_neighbours.cuh",
  [GGI_SYNC_HALO] = "frame/wait_halo.cuh",
  [GGI_SYNC_ORDERED] = "frame/wait_ordered.cuh",
};

/* What one render needs at hand: where the templates are, the arena the
 * values live in, and the diagnostics. */
typedef struct frame_ctx {
  const ggi_module *m;
  const ggi_kernel *fr;
  const char *templates_dir;
  ggi_diag *d;
  int oom;
} frame_ctx;

/* A copy of the printf-formatted text in the module's arena (a dict's
 * values must outlive it). */
static const char *fmt(frame_ctx *c, const char *f, ...) __attribute__((format(printf, 2, 3)));
static const char *fmt(frame_ctx *c, const char *f, ...)
{
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : ggi_alloc(c->m->arena, (size_t)n + 1);
  if (!s) {
    c->oom = 1;
    return "";
  }
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

static const char *take(frame_ctx *c, ggi_buf *b)
{
  const char *s = ggi_buf_ok(b) ? ggi_strdup(c->m->arena, b->p ? b->p : "") : NULL;
  ggi_buf_free(b);
  if (!s) c->oom = 1;
  return s ? s : "";
}

/* The workload file's name as generated comments may hold it
 * (ggi_buf_put_cstr: no comment end, no control bytes). */
static const char *file_text(frame_ctx *c)
{
  ggi_buf b = {0};
  ggi_buf_put_cstr(&b, c->m->file ? c->m->file : "?");
  return take(c, &b);
}

static void set(frame_ctx *c, ggi_dict *dict, const char *key, const char *value)
{
  if (ggi_dict_set(dict, key, value) != 0) c->oom = 1;
}

static int piece(frame_ctx *c, const char *path, const ggi_dict *dict, ggi_buf *out)
{
  return ggi_render_template(c->templates_dir, path, dict, out, c->d);
}

static const char *extent_text(frame_ctx *c, ggi_extent e)
{
  return e.name ? fmt(c, "args.%s", e.name) : fmt(c, "%lldLL", (long long)e.value);
}

/* The number of indices of rank-1 stage s's range, as the frame's
 * device function sees it. */
static const char *stage_work(frame_ctx *c, int s)
{
  const ggi_kernel *k = ggi_stage_kernel(c->fr, s);
  const ggi_extent e = k->range[0];
  for (int j = 0; e.name && j < k->nextents; j++)
    if (strcmp(k->extents[j], e.name) == 0)
      return fmt(c, "(long long)%s", extent_text(c, c->fr->frame->stages[s].ext[j]));
  return extent_text(c, e);
}

/* The workspace alignment's keys, which every piece that hands out
 * workspace reads. */
static void set_ws_align(frame_ctx *c, ggi_dict *dict)
{
  set(c, dict, "WS_ALIGN", fmt(c, "%u", GG_FRAME_WS_ALIGN));
  set(c, dict, "WS_ALIGN_LESS_1", fmt(c, "%u", GG_FRAME_WS_ALIGN - 1));
}

/* The frame's publications' slots, one after the other in its workspace,
 * and the switch every stage reads: halos travel in tagged words when
 * there are several (pseudo-)blocks and every publication's range fits
 * its slots this frame. */
static int render_exchange(frame_ctx *c, ggi_buf *out)
{
  const ggi_kernel *fr = c->fr;
  const ggi_frame *f = fr->frame;
  int halo = 0;
  for (int s = 0; s < f->nstages; s++) halo |= f->stages[s].block_sync == GGI_SYNC_HALO;
  if (!halo && f->npublished == 0) return 0;
  ggi_dict none = {0};
  if (f->npublished > 0 && piece(c, "frame/tag.cuh", &none, out) != 0) return -1;
  ggi_buf fits = {0};
  for (int w = 0; w < f->nstages; w++) {
    const ggi_kernel *k = ggi_stage_kernel(fr, w);
    for (int j = 0; j < k->nparams; j++) {
      const ggi_xchg *x = &f->stages[w].xchg[j];
      if (x->pub_h == 0) continue;
      ggi_dict dict = {0};
      set(c, &dict, "PUB_STAGE", fmt(c, "%d", w));
      set(c, &dict, "PUB_PARAM", fmt(c, "%d", j));
      set(c, &dict, "PUB_VIEW", k->params[j].name);
      set(c, &dict, "PUB_BYTES", fmt(c, "%llu", (unsigned long long)x->pub_chunks *
                                                    ggi_frame_xchg_chunk_bytes(fr, w, j)));
      set(c, &dict, "PUB_CHUNKS", fmt(c, "%d", x->pub_chunks));
      set(c, &dict, "WORK", stage_work(c, w));
      set(c, &dict, "VECTOR", fmt(c, "%d", k->spec.vector));
      set_ws_align(c, &dict);
      if (piece(c, "frame/publication.cuh", &dict, out) != 0 ||
          piece(c, "frame/exchange_fits.cuh", &dict, &fits) != 0) {
        ggi_buf_free(&fits);
        return -1;
      }
    }
  }
  ggi_dict dict = {0};
  set(c, &dict, "XCHG_FITS", take(c, &fits));
  return piece(c, "frame/exchange.cuh", &dict, out);
}

/* `name.field = value;` for every field of stage s's argument struct,
 * then its share of the workspace. */
static int stage_args(frame_ctx *c, int s, const ggi_plan *sp, const char *name, ggi_buf *b)
{
  const ggi_kernel *fr = c->fr;
  const ggi_stage *st = &fr->frame->stages[s];
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  ggi_buf_printf(b, "    gg_args_%s %s;\n", k->name, name);
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (st->constant[j])
      ggi_buf_printf(b, "    %s.%s = (%s)(%s);\n", name, kp->name, ggi_dtype_ctype(kp->dtype),
                     st->constant[j]);
    else
      ggi_buf_printf(b, "    %s.%s = args.%s;\n", name, kp->name, fr->params[st->bind[j]].name);
  }
  for (int j = 0; j < k->nextents; j++)
    ggi_buf_printf(b, "    %s.%s = %s;\n", name, k->extents[j], extent_text(c, st->ext[j]));
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (kp->kind != GG_PARAM_VIEW || kp->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < kp->rank; dim++)
      ggi_buf_printf(b, "    %s.%s_s%d = args.%s_s%d;\n", name, kp->name, dim,
                     fr->params[st->bind[j]].name, dim);
  }
  if (sp->ws_fixed || sp->ws_per_block) {
    ggi_dict dict = {0};
    set(c, &dict, "ARG", name);
    set(c, &dict, "WS_FIXED", fmt(c, "%u", (unsigned)sp->ws_fixed));
    set(c, &dict, "WS_PER_BLOCK", fmt(c, "%u", (unsigned)sp->ws_per_block));
    set_ws_align(c, &dict);
    if (piece(c, "frame/stage_ws.cuh", &dict, b) != 0) return -1;
  }
  if (sp->needs_seq) ggi_buf_printf(b, "    %s.gg_seq = args.gg_seq;\n", name);
  return 0;
}

/* Stage s's gg_io lines while the frame exchanges halos (gg_xchg): a
 * publication's slots per view it publishes, the source's per halo view
 * it reads from one.  *any: whether the stage takes part. */
static int stage_io(frame_ctx *c, int s, ggi_buf *b, int *any)
{
  const ggi_frame *f = c->fr->frame;
  const ggi_kernel *k = ggi_stage_kernel(c->fr, s);
  *any = 0;
  for (int j = 0; j < k->nparams; j++) {
    const ggi_xchg *x = &f->stages[s].xchg[j];
    if (x->pub_h == 0 && x->src < 0) continue;
    *any = 1;
    ggi_dict dict = {0};
    set(c, &dict, "STAGE", fmt(c, "%d", s));
    set(c, &dict, "IO_VIEW", k->params[j].name);
    set(c, &dict, "IO_PARAM", fmt(c, "%d", j));
    if (x->pub_h > 0) {
      set(c, &dict, "IO_HALO", fmt(c, "%d", x->pub_h));
      if (piece(c, "frame/io_publish.cuh", &dict, b) != 0) return -1;
    }
    if (x->src >= 0) {
      set(c, &dict, "PUB_STAGE", fmt(c, "%d", x->src));
      set(c, &dict, "PUB_PARAM", fmt(c, "%d", x->src_param));
      set(c, &dict, "IO_HALO", fmt(c, "%d", f->stages[x->src].xchg[x->src_param].pub_h));
      set(c, &dict, "WORK", stage_work(c, s));
      if (piece(c, "frame/io_read.cuh", &dict, b) != 0) return -1;
    }
  }
  return 0;
}

/* Stage s: its comment, what it waits for, then its body on the virtual
 * grid.  A for stage fused into the reduction after it (stages[s +
 * 1].fused) only waits here; the reduction's fold runs its body index by
 * index (run_fused.cuh). */
static int render_stage(frame_ctx *c, int s, unsigned target, ggi_buf *out)
{
  const ggi_module *m = c->m;
  const ggi_frame *f = c->fr->frame;
  const ggi_stage *st = &f->stages[s];
  const ggi_kernel *k = ggi_stage_kernel(c->fr, s);
  const ggi_plan *sp = ggi_plan_of(k, target);
  if (!sp) return ggi_fail_at(c->d, m->file, st->line, "stage %d: kernel \"%s\" has no plan", s, k->name);
  ggi_dict dict = {0};
  set(c, &dict, "FILE", file_text(c));
  set(c, &dict, "STAGE", fmt(c, "%d", s));
  set(c, &dict, "STAGE_KERNEL", k->name);
  set(c, &dict, "STAGE_LINE", fmt(c, "%d", st->line));
  set(c, &dict, "STAGE_WHY", st->why);
  set(c, &dict, "STAGE_NS", fmt(c, GGI_NS_PREFIX "%s", k->name));
  if (piece(c, "frame/stage.cuh", &dict, out) != 0) return -1;
  const char *wait = st->barrier ? "frame/wait_grid.cuh"
                     : (unsigned)st->block_sync < sizeof wait_piece / sizeof *wait_piece
                         ? wait_piece[st->block_sync]
                         : NULL;
  if (wait && piece(c, wait, &dict, out) != 0) return -1;
  if (s + 1 < f->nstages && f->stages[s + 1].fused) return 0;
  ggi_buf args = {0}, io = {0};
  const char *run = "frame/run.cuh";
  int any = 0;
  if (st->fused) {
    const ggi_kernel *kf = ggi_stage_kernel(c->fr, s - 1);
    const ggi_plan *fp = ggi_plan_of(kf, target);
    if (!fp) return ggi_fail_at(c->d, m->file, st->line, "stage %d has no plan", s - 1);
    ggi_buf for_args = {0};
    if (stage_args(c, s - 1, fp, "gg_p", &for_args) != 0) {
      ggi_buf_free(&for_args);
      return -1;
    }
    set(c, &dict, "FOR_ARGS", take(c, &for_args));
    set(c, &dict, "FOR_NS", fmt(c, GGI_NS_PREFIX "%s", kf->name));
    run = "frame/run_fused.cuh";
  } else if (stage_io(c, s, &io, &any) != 0) {
    ggi_buf_free(&io);
    return -1;
  }
  if (any) run = "frame/run_exchange.cuh";
  if (ggi_pattern_is(k, GGI_PAT_PEERS)) { /* an exchange: its area of the symmetric workspace */
    run = "frame/run_peers.cuh";
    set(c, &dict, "SYM_OFF", fmt(c, "%lluull", (unsigned long long)st->sym_off));
  }
  set(c, &dict, "STAGE_IO", take(c, &io));
  if (stage_args(c, s, sp, "gg_a", &args) != 0) {
    ggi_buf_free(&args);
    return -1;
  }
  set(c, &dict, "STAGE_ARGS", take(c, &args));
  return c->oom ? ggi_fail(c->d, "out of memory rendering frame %s", c->fr->name)
                : piece(c, run, &dict, out);
}

int ggi_render_frame(const ggi_module *m, const ggi_kernel *fr, unsigned target,
                     const char *templates_dir, ggi_buf *out, ggi_diag *d)
{
  const ggi_plan *pp = ggi_plan_of(fr, target);
  if (!pp) return ggi_fail_at(d, m->file, fr->line, "frame \"%s\" has no plan", fr->name);
  const ggi_plan plan = *pp;
  const ggi_frame *f = fr->frame;
  frame_ctx c = {m, fr, templates_dir, d, 0};
  for (int s = 0; s < f->nstages; s++) /* the exchange stages' own kernels */
    if (f->stages[s].own &&
        ggi_render_kernel(m, f->stages[s].own, target, templates_dir, out, d) != 0)
      return -1;
  ggi_dict dict;
  if (ggi_kernel_dict(m, fr, target, &plan, &dict, d) != 0) return -1;
  set(&c, &dict, "FILE", file_text(&c));
  /* a frame on several GPUs gets its share of the symmetric workspace */
  set(&c, &dict, "FRAME_SYM", f->sym_bytes ? ", char *gg_sym" : "");
  set(&c, &dict, "LINE", fmt(&c, "%d", fr->line));
  set(&c, &dict, "NSTAGES", fmt(&c, "%d", f->nstages));
  set(&c, &dict, "NBARRIERS", fmt(&c, "%d", f->nbarriers));
  /* the workspace: the barrier words, then (with neighbour waits) one
     progress word per (pseudo-)block, then the stages' own (frame_plan.c) */
  set(&c, &dict, "FRAME_WS", plan.ws_fixed || plan.ws_per_block ? "(char *)args.gg_ws" : "0");
  set(&c, &dict, "FRAME_WS_HEAD", fmt(&c, "%u", GG_FRAME_WS_HEAD));
  set(&c, &dict, "FRAME_PROGRESS_BYTES", fmt(&c, "%u", GG_FRAME_PROGRESS_BYTES));
  if (f->nneighbours > 0) {
    set(&c, &dict, "FRAME_WS_STAGES", fmt(&c, "%uu + %uull * g.nblocks", GG_FRAME_WS_HEAD,
                                          GG_FRAME_PROGRESS_BYTES));
    set(&c, &dict, "FRAME_WS_HEAD_WORDS", "barrier and progress words");
  } else {
    set(&c, &dict, "FRAME_WS_STAGES", fmt(&c, "%uu", GG_FRAME_WS_HEAD));
    set(&c, &dict, "FRAME_WS_HEAD_WORDS", "barrier words");
  }
  ggi_buf begin = {0}, exchange = {0}, stages = {0};
  int rc = 0;
  if (f->nbarriers > 0) rc = piece(&c, "frame/begin_barriers.cuh", &dict, &begin);
  if (rc == 0 && f->nneighbours > 0) rc = piece(&c, "frame/begin_neighbours.cuh", &dict, &begin);
  if (rc == 0) rc = render_exchange(&c, &exchange);
  for (int s = 0; rc == 0 && s < f->nstages; s++) rc = render_stage(&c, s, target, &stages);
  set(&c, &dict, "FRAME_BEGIN", take(&c, &begin));
  set(&c, &dict, "FRAME_EXCHANGE", take(&c, &exchange));
  set(&c, &dict, "FRAME_STAGES", take(&c, &stages));
  if (rc != 0) return -1;
  if (c.oom) return ggi_fail(d, "out of memory rendering frame %s", fr->name);
  return ggi_render_template(templates_dir, plan.template_path, &dict, out, d);
}
