/*
 * plan_module.c - the plan stage over a module (plan.h: ggi_plan_module):
 * every kernel's plan for each of its targets (plan.c), a frame's
 * schedule first (frame_schedule.c), then every persistent kernel's shape
 * (plan_persistent.c).  The stage's order lives here alone, so the files
 * it calls read plans and never call back.
 *
 * Kernels are planned in module order, which puts a frame after the
 * kernels its stages run: a frame's schedule and plan read its stages'.
 */
#include "frame.h"
#include "patterns.h"
#include "plan.h"

static int plan_persistent(ggi_module *m, ggi_persistent *p, ggi_diag *d)
{
  if (!(p->targets & (GGI_TARGET_CUDA | GGI_TARGET_HIP)))
    return ggi_fail_at(d, m->file, p->line, "persistent \"%s\": has no target (cuda or hip)",
                       p->name);
  for (unsigned t = GGI_TARGET_CUDA; t <= GGI_TARGET_HIP; t <<= 1) {
    if (!(p->targets & t)) continue;
    ggi_persistent_shape *s = ggi_alloc(m->arena, sizeof *s);
    if (!s) return ggi_fail_at(d, m->file, p->line, "out of memory");
    if (ggi_persistent_shape_of(m, p, t, s, d) != 0) return -1;
    p->shape[ggi_plan_slot(t)] = s;
  }
  return 0;
}

/* The descriptor carries one set of figures per kernel (ggi_desc_target's
 * plan), and the runtime uses them on either backend: a kernel planned
 * for both targets must need the same on both. */
static int same_figures(const ggi_plan *a, const ggi_plan *b)
{
  return a->shared_bytes == b->shared_bytes && a->ws_fixed == b->ws_fixed &&
         a->ws_per_block == b->ws_per_block && a->needs_seq == b->needs_seq &&
         a->grid_rule == b->grid_rule && a->grid_fixed == b->grid_fixed &&
         a->league_blocks == b->league_blocks &&
         a->small_block == b->small_block && a->small_work == b->small_work &&
         a->cap_resident == b->cap_resident && a->features == b->features &&
         a->min_threads == b->min_threads && a->max_threads == b->max_threads &&
         a->whole_block == b->whole_block &&
         a->args.size == b->args.size && a->args.n == b->args.n;
}

int ggi_plan_module(ggi_module *m, ggi_diag *d)
{
  for (int i = 0; i < m->nkernels; i++) {
    ggi_kernel *k = &m->kernels[i];
    k->plan[0] = k->plan[1] = NULL;
    ggi_plan_views(k);
    for (int s = 0; k->frame && s < k->frame->nstages; s++) { /* exchange stages' own kernels */
      ggi_kernel *own = k->frame->stages[s].own;
      for (unsigned t = GGI_TARGET_CUDA; own && t <= GGI_TARGET_HIP; t <<= 1)
        if ((own->targets & t) && ggi_plan_kernel(m, own, t, d) != 0) return -1;
    }
    if (ggi_pattern_is(k, GGI_PAT_CHAIN) && ggi_frame_schedule(m, k, d) != 0) return -1;
    for (unsigned t = GGI_TARGET_CUDA; t <= GGI_TARGET_HIP; t <<= 1)
      if ((k->targets & t) && ggi_plan_kernel(m, k, t, d) != 0) return -1;
    if (k->plan[0] && k->plan[1] && !same_figures(k->plan[0], k->plan[1]))
      return ggi_fail_at(d, m->file, k->line,
                         "kernel \"%s\": its cuda and hip plans differ in what the module "
                         "descriptor carries (shared memory, workspace, grid or arguments); "
                         "this is a gpugen bug: please report it, and use targets = { \"cuda\" } "
                         "or { \"hip\" } meanwhile", k->name);
  }
  for (int i = 0; i < m->npersistent; i++) {
    ggi_persistent *p = &m->persistent[i];
    p->shape[0] = p->shape[1] = NULL;
    if (plan_persistent(m, p, d) != 0) return -1;
  }
  return 0;
}
