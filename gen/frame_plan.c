/*
 * frame_plan.c - the plan of a frame: what a persistent kernel must give
 * it, as for any command - the union of its stages' plans (shared memory,
 * thread bounds, features) and one workspace that holds the barrier words,
 * the progress words, the publications' slots and every stage's own, in
 * the order frame_render.c hands them out.  Reads the schedule
 * (frame_schedule.c) and the stages' plans; decides nothing else.
 */
#include "frame.h"

#include <stdint.h>
#include <string.h>

int ggi_frame_threads(const ggi_kernel *fr, unsigned target, ggi_thread_bounds *b, int *stage_out)
{
  *b = (ggi_thread_bounds){0, 0, -1, -1};
  for (int s = 0; s < fr->frame->nstages; s++) {
    const ggi_plan *sp = ggi_plan_of(ggi_stage_kernel(fr, s), target);
    if (!sp) {
      *stage_out = s;
      return -1;
    }
    if (sp->min_threads > b->min) {
      b->min = sp->min_threads;
      b->min_from = s;
    }
    if (sp->max_threads > 0 && (b->max == 0 || sp->max_threads < b->max)) {
      b->max = sp->max_threads;
      b->max_from = s;
    }
  }
  return 0;
}

int ggi_frame_plan(const ggi_kernel *fr, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  const ggi_frame *f = fr->frame;
  memset(p, 0, sizeof *p);
  p->template_path = "frame/function.cuh"; /* its pieces: frame_render.c */
  p->grid_rule = GG_GRID_RESIDENT;
  uint64_t fixed = 0, per_block = 0;
  int ws = 0, missing = 0;
  ggi_thread_bounds tb;
  if (ggi_frame_threads(fr, target, &tb, &missing) != 0)
    return ggi_fail(d, "stage %d: kernel \"%s\" does not target %s", missing,
                    ggi_stage_kernel(fr, missing)->name, target == GGI_TARGET_HIP ? "hip" : "cuda");
  p->min_threads = tb.min;
  p->max_threads = tb.max;
  for (int s = 0; s < f->nstages; s++) {
    const ggi_plan sp = *ggi_plan_of(ggi_stage_kernel(fr, s), target);
    if (sp.shared_bytes > p->shared_bytes) p->shared_bytes = sp.shared_bytes;
    p->features |= sp.features;
    p->whole_block |= sp.whole_block;
    p->needs_seq |= sp.needs_seq;
    if (sp.ws_fixed || sp.ws_per_block) {
      ws = 1;
      /* the device rounds each stage's share up to GG_FRAME_WS_ALIGN */
      fixed += (uint64_t)sp.ws_fixed + GG_FRAME_WS_ALIGN - 1;
      per_block += sp.ws_per_block;
    }
  }
  const int min_from = tb.min_from, max_from = tb.max_from;
  if (p->max_threads > 0 && p->min_threads > p->max_threads) {
    const ggi_plan *lo = ggi_plan_of(ggi_stage_kernel(fr, min_from), target);
    const ggi_plan *hi = ggi_plan_of(ggi_stage_kernel(fr, max_from), target);
    return ggi_fail(d, "stage %d (%s) runs on %s %d threads a block, stage %d (%s) on %s %d: no "
                       "block runs both; give the stages one thread count (a gemm's or fft's "
                       "block, a team's team_size, the block of the others)",
                    min_from, ggi_stage_kernel(fr, min_from)->name,
                    ggi_plan_exact(lo) ? "exactly" : "at least", p->min_threads, max_from,
                    ggi_stage_kernel(fr, max_from)->name,
                    ggi_plan_exact(hi) ? "exactly" : "at most", p->max_threads);
  }
  if (ws || f->nbarriers > 0 || f->nneighbours > 0) fixed += GG_FRAME_WS_HEAD;
  if (f->nneighbours > 0) per_block += GG_FRAME_PROGRESS_BYTES; /* progress words */
  for (int w = 0; w < f->nstages; w++) /* publications' slots, each from a 256-byte boundary */
    for (int j = 0; j < ggi_stage_kernel(fr, w)->nparams; j++)
      if (f->stages[w].xchg[j].pub_h > 0) {
        fixed += GG_FRAME_WS_ALIGN - 1;
        per_block += (uint64_t)f->stages[w].xchg[j].pub_chunks * ggi_frame_xchg_chunk_bytes(fr, w, j);
        p->needs_seq = 1; /* the frame's tag */
      }
  if (fixed > UINT32_MAX / 2 || per_block > UINT32_MAX / 2)
    return ggi_fail(d, "the stages' workspaces add up to more than 2 GiB");
  p->ws_fixed = (uint32_t)fixed;
  p->ws_per_block = (uint32_t)per_block;
  return 0;
}