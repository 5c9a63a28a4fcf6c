/*
 * frame.c - frames: the dependency analysis that places barriers between
 * stages, the frame's plan, and the device function that runs the stages
 * back to back on the persistent kernel's virtual grid.
 *
 * Every decision about a frame is made in ggi_frame_schedule() and kept
 * in the IR; emit, explain and list only read it.
 */
#include "frame.h"
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

/* Does stage s depend on earlier stage r?  When it does, one sentence
 * saying through which view. */
static int depends(const ggi_module *m, const ggi_kernel *fr, int r, int s, const char **why)
{
  for (int p = 0; p < fr->nparams; p++) {
    if (fr->params[p].kind != GG_PARAM_VIEW) continue;
    int ur = use_of(fr, r, p), us = use_of(fr, s, p);
    const char *what = NULL;
    if ((us & 1) && (ur & 2)) what = "reads";
    else if ((us & 2) && (ur & 1)) what = "writes";
    else if ((us & 2) && (ur & 2)) what = "writes";
    if (!what) continue;
    ggi_buf b = {0};
    ggi_buf_printf(&b, "%s %s, which stage %d (%s) %s", what, fr->params[p].name, r,
                   stage_kernel(fr, r)->name,
                   (us & 1) && (ur & 2) ? "writes" : (ur & 1) ? "reads" : "also writes");
    *why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
    ggi_buf_free(&b);
    return 1;
  }
  return 0;
}

static int uses_shared(const ggi_kernel *k, unsigned target)
{
  const ggi_plan *p = ggi_plan_of(k, target);
  return p && p->shared_bytes > 0;
}

int ggi_frame_schedule(const ggi_module *m, ggi_kernel *fr, ggi_diag *d)
{
  ggi_frame *f = fr->frame;
  unsigned target = ggi_desc_target(fr->targets);
  int fence = 0;      /* first stage not yet ordered by a grid barrier */
  int shared_since = -1; /* a stage since the last block-wide sync that used shared memory */
  f->nbarriers = 0;
  for (int s = 0; s < f->nstages; s++) {
    ggi_stage *st = &f->stages[s];
    st->barrier = st->block_sync = 0;
    st->after = -1;
    st->why = NULL;
    const char *why = NULL;
    /* the latest earlier stage it depends on decides: a barrier is needed
       when that stage is not yet behind one */
    int dep = -1;
    for (int r = s - 1; r >= 0 && dep < 0; r--)
      if (depends(m, fr, r, s, &why)) dep = r;
    if (dep >= fence && dep >= 0) {
      st->barrier = 1;
      st->after = dep;
      f->nbarriers++;
      fence = s;
      shared_since = -1; /* a grid barrier syncs every block */
      st->why = ggi_strdup(m->arena, why ? why : "depends on an earlier stage");
    } else if (dep >= 0) {
      st->after = dep;
      ggi_buf b = {0};
      ggi_buf_printf(&b, "starts at once: it %s, already ordered by the grid barrier before stage %d",
                     why ? why : "depends on an earlier stage", fence);
      st->why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
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
      st->block_sync = 1;
      shared_since = -1;
    }
    if (sh) shared_since = s;
    if (!st->why) return ggi_fail_at(d, m->file, fr->line, "out of memory");
  }
  return 0;
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
  if (p->max_threads > 0 && p->min_threads > p->max_threads)
    return ggi_fail(d, "stage %d (%s) needs at least %d threads per block, stage %d (%s) works "
                       "with at most %d: no block size runs both",
                    min_from, stage_kernel(fr, min_from)->name, p->min_threads, max_from,
                    stage_kernel(fr, max_from)->name, p->max_threads);
  if (ws || f->nbarriers > 0) fixed += GGI_FRAME_WS_HEAD;
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

/* `gg_a.field = value;` for every field of stage s's argument struct. */
static int put_stage(const ggi_module *m, const ggi_kernel *fr, int s, unsigned target,
                     ggi_buf *b, ggi_diag *d)
{
  const ggi_stage *st = &fr->frame->stages[s];
  const ggi_kernel *k = stage_kernel(fr, s);
  const ggi_plan *spp = ggi_plan_of(k, target);
  if (!spp) return ggi_fail_at(d, m->file, st->line, "stage %d: kernel '%s' has no plan", s, k->name);
  const ggi_plan sp = *spp;
  ggi_buf_printf(b, "  /* stage %d: %s (%s:%d): %s */\n", s, k->name, m->file ? m->file : "?",
                 st->line, st->why);
  if (st->barrier)
    ggi_buf_puts(b, "  if (!gg_frame_barrier(gg_b, gg_ws, gg_mbox))\n    return false;\n");
  else if (st->block_sync)
    ggi_buf_puts(b, "  gg_sync(g); /* shared memory: the previous stage may still read it */\n");
  ggi_buf_printf(b, "  {\n    gg_args_%s gg_a;\n", k->name);
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (st->constant[j])
      ggi_buf_printf(b, "    gg_a.%s = (%s)(%s);\n", kp->name, ctype(kp->dtype), st->constant[j]);
    else
      ggi_buf_printf(b, "    gg_a.%s = args.%s;\n", kp->name, fr->params[st->bind[j]].name);
  }
  for (int j = 0; j < k->nextents; j++) {
    ggi_buf_printf(b, "    gg_a.%s = ", k->extents[j]);
    put_extent(b, st->ext[j]);
    ggi_buf_puts(b, ";\n");
  }
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    if (kp->kind != GG_PARAM_VIEW || kp->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < kp->rank; dim++)
      ggi_buf_printf(b, "    gg_a.%s_s%d = args.%s_s%d;\n", kp->name, dim,
                     fr->params[st->bind[j]].name, dim);
  }
  if (sp.ws_fixed || sp.ws_per_block) {
    ggi_buf_printf(b, "    gg_a.gg_ws = gg_ws + gg_off;\n"
                      "    gg_off += (%uull + %uull * g.nblocks + %uu) / %uu * %uu;\n",
                   (unsigned)sp.ws_fixed, (unsigned)sp.ws_per_block, GGI_FRAME_WS_ALIGN - 1,
                   GGI_FRAME_WS_ALIGN, GGI_FRAME_WS_ALIGN);
  }
  if (sp.needs_seq) ggi_buf_puts(b, "    gg_a.gg_seq = args.gg_seq;\n");
  ggi_buf_printf(b, "    gg_body_%s(gg_a, g);\n  }\n", k->name);
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
  ggi_buf_printf(out,
                 "/* Runs every stage on the virtual grid g; a stage that depends on an\n"
                 " * earlier one waits at a grid barrier (the plan: gpugen explain). false:\n"
                 " * the host aborted the session during a barrier. */\n"
                 "__device__ bool gg_frame_%s(const gg_args_%s &args, const gg_grid &g, "
                 "const char *gg_mbox)\n{\n",
                 fr->name, fr->name);
  if (ws) ggi_buf_puts(out, "  char *gg_ws = (char *)args.gg_ws;\n");
  else ggi_buf_puts(out, "  char *gg_ws = 0;\n");
  ggi_buf_printf(out, "  unsigned long long gg_off = %uu; /* past the barrier words */\n",
                 GGI_FRAME_WS_HEAD);
  ggi_buf_puts(out, "  gg_frame_bar gg_b;\n");
  if (fr->frame->nbarriers > 0) ggi_buf_puts(out, "  gg_frame_bar_begin(gg_b, gg_ws);\n");
  ggi_buf_puts(out, "  (void)gg_b; (void)gg_off; (void)gg_mbox; (void)gg_ws;\n");
  for (int s = 0; s < fr->frame->nstages; s++)
    if (put_stage(m, fr, s, target, out, d) != 0) return -1;
  ggi_buf_puts(out, "  return true;\n}\n");
  return ggi_buf_ok(out) ? 0 : ggi_fail(d, "out of memory rendering frame %s", fr->name);
}

void ggi_frame_summary(const ggi_kernel *fr, ggi_buf *b)
{
  ggi_buf_printf(b, "%d grid barrier(s)  stages:", fr->frame->nbarriers);
  for (int s = 0; s < fr->frame->nstages; s++)
    ggi_buf_printf(b, " %s%s", fr->frame->stages[s].barrier ? "| " : "", stage_kernel(fr, s)->name);
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
    else fprintf(out, "      no barrier: %s\n", st->why);
    if (st->block_sync)
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
  const ggi_plan *pp = ggi_plan_of(fr, ggi_desc_target(fr->targets));
  const ggi_plan p = pp ? *pp : (ggi_plan){0};
  if (pp)
    fprintf(out, "workspace: %u bytes + %u per pseudo-block of the persistent kernel's virtual "
                 "grid (barrier words, then each stage's own)\nshared memory: %u bytes per "
                 "pseudo-block (the largest stage's)\n",
            (unsigned)p.ws_fixed, (unsigned)p.ws_per_block, (unsigned)p.shared_bytes);
}
