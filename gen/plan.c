/*
 * plan.c - a kernel's plan (plan.h): for one kernel and target, what the
 * kernel needs (template, shared memory, workspace, grid rule, features,
 * thread bounds) through its pattern's planner, and its argument
 * struct's layout; what its views allow (halo exchange, staging); and
 * the for and team planners.  Stored in the IR; everything after reads
 * it.  plan_module.c runs the stage over a module.
 */
#include <stdio.h>
#include <string.h>

#include "patterns.h"
#include "plan.h"

/* ---- what a kernel needs from the device ---- */

static unsigned view_features(const ggi_kernel *k)
{
  unsigned feat = 0;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (ggi_dtype_is_half(pp->dtype)) feat |= GG_FEAT_HALF;
    if (pp->kind != GG_PARAM_VIEW) continue;
    if (pp->space == GG_SPACE_MAPPED) feat |= GG_FEAT_MAPPED;
    if (pp->space == GG_SPACE_MANAGED) feat |= GG_FEAT_MANAGED;
    if (pp->access == GG_ACCESS_ATOMIC && pp->dtype == GG_F32) feat |= GG_FEAT_FLOAT_ATOMIC;
    if (pp->access == GG_ACCESS_ATOMIC && pp->dtype == GG_F64) feat |= GG_FEAT_DOUBLE_ATOMIC;
  }
  if (ggi_dtype_is_half(k->acc_type) && ggi_is_reduce_like(k->pattern))
    feat |= GG_FEAT_HALF;
  if (k->spec.cas_emulation) feat |= GG_FEAT_CAS_EMULATION;
  return feat;
}

/* Scratch views of a team, 16-byte aligned one after the other. */
static uint32_t scratch_bytes(const ggi_kernel *k)
{
  uint64_t off = 0;
  for (int i = 0; i < k->nscratch; i++) {
    uint64_t n = ggi_dtype_size(k->scratch[i].dtype);
    for (int dim = 0; dim < k->scratch[i].rank; dim++) n *= (uint64_t)k->scratch[i].ext[dim].value;
    off += (n + 15) / 16 * 16;
  }
  return off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
}

int ggi_plan_set(ggi_plan *p, ggi_arena *a, const char *key, const char *value)
{
  if (p->nvars >= GGI_PLAN_MAX_VARS || !(value = ggi_strdup(a, value))) return -1;
  p->keys[p->nvars] = key;
  p->values[p->nvars++] = value;
  return 0;
}

/* ---- halo exchange (templates/global/halo_exchange.cuh) ----
 * What a rank-1 for kernel's views allow a frame to do, decided once
 * from the body's text (gen/body_check.c's proofs): a halo view read
 * only through its macro may take a neighbour chunk's element from a
 * publication (the macro becomes gg_halo_ld, a value: nothing can take
 * its address, the proof allows no '&'); a contiguous view written only
 * at the thread's own index may have its chunk edges published after
 * the body (gg_halo_pub).  A frame that uses either marks the view
 * (ggi_param.exchanged, gen/frame_exchange.c), and only then is it rendered so. */
static void plan_view_exchange(ggi_kernel *k)
{
  for (int i = 0; i < k->nparams; i++) {
    ggi_param *pp = &k->params[i];
    pp->exchange = pp->exchanged = 0;
    if (!ggi_pattern_is(k, GGI_PAT_HALO) || k->rank != 1 || pp->kind != GG_PARAM_VIEW ||
        pp->rank != 1 || pp->layout == GG_LAYOUT_STRIDE)
      continue;
    if (pp->halo > 0 && pp->access == GG_ACCESS_IN && ggi_body_calls_only(k, pp))
      pp->exchange = GGI_XCHG_READ;
    else if ((pp->access == GG_ACCESS_OUT || pp->access == GG_ACCESS_INOUT) &&
             ggi_body_own_index(k, pp))
      pp->exchange = GGI_XCHG_PUBLISH;
  }
}

/* ---- staged steps (templates/common/for.cuh) ----
 * A for body runs index after index, and the compiler keeps each body
 * whole: for x(i) += 1 the load of step k + 1 follows the store of step
 * k (the PTX of nvcc 13, sm_90: ld and st alternate in the unrolled
 * loop, with __restrict__ or __builtin_assume(step > 0) too), so a thread
 * of k steps waits k memory round trips.  A view the body reads (not
 * only assigns), only at its own index (body_check.c's proofs: no other
 * index, no '&'), and whose extents are the range's (so each index of
 * the range is inside it: a load the body would have skipped stays in
 * bounds) is staged: the loop loads it for several steps into registers,
 * runs the bodies on the registers, then stores the views they may write
 * (inout).  Out views keep their stores in the body: a store does not
 * wait.  At most GGI_STAGE_WORDS 4-byte registers a thread (steps x
 * vector x the staged views' words) and GGI_STAGE_STEPS steps; fewer than
 * two steps: nothing is staged.  Measured on the H100 (bench/RESULTS.md):
 * the 32K increment on 8 blocks of 512 (8 steps), 5.95 -> 4.89 us a
 * frame. */
enum { GGI_STAGE_WORDS = 16, GGI_STAGE_STEPS = 8 };

static int within_range(const ggi_kernel *k, const ggi_param *pp)
{
  for (int d = 0; d < k->rank; d++) {
    const ggi_extent *v = &pp->ext[d], *r = &k->range[d];
    if (v->name || r->name ? !(v->name && r->name && strcmp(v->name, r->name) == 0)
                           : v->value < r->value)
      return 0;
  }
  return 1;
}

/* Why view pp of for kernel k cannot be staged, or NULL when it can. */
static const char *stage_refusal(const ggi_kernel *k, const ggi_param *pp)
{
  if (pp->access == GG_ACCESS_OUT) return "out: its stores do not wait";
  if (pp->access != GG_ACCESS_IN && pp->access != GG_ACCESS_INOUT) return "atomic";
  if (pp->rank != k->rank || !within_range(k, pp)) return "its extents are not the range's";
  if (ggi_view_may_alias(pp)) return "run-time strides: two indices may be one element";
  if (!ggi_body_own_index(k, pp))
    return "touched other than as V(own indices), or the body has &, [, a directive or a gg_ name";
  if (!ggi_body_reads_own(k, pp)) return "the body only assigns it, or never names it";
  return NULL;
}

static void plan_staging(ggi_kernel *k)
{
  int words = 0;
  k->stage_steps = 0;
  for (int i = 0; i < k->nparams; i++) {
    ggi_param *pp = &k->params[i];
    pp->staged = 0;
    pp->stage_why = NULL;
    if (!ggi_pattern_is(k, GGI_PAT_HALO) || pp->kind != GG_PARAM_VIEW) continue;
    pp->stage_why = stage_refusal(k, pp);
    pp->staged = pp->stage_why == NULL;
    if (pp->staged) words += (int)(ggi_dtype_size(pp->dtype) + 3) / 4;
  }
  int steps = words > 0 ? GGI_STAGE_WORDS / (words * k->spec.vector) : 0;
  if (words > 0 && steps < 2)
    for (int i = 0; i < k->nparams; i++)
      if (k->params[i].staged) {
        k->params[i].staged = 0;
        k->params[i].stage_why = "the views to stage take more than 8 of 16 registers a step "
                                 "(4-byte words x vector): fewer than 2 steps fit";
      }
  if (steps >= 2) k->stage_steps = steps > GGI_STAGE_STEPS ? GGI_STAGE_STEPS : steps;
}

void ggi_plan_views(ggi_kernel *k)
{
  plan_view_exchange(k);
  plan_staging(k);
}

/* A for or team kernel launched cooperatively: a co-resident grid.  No
 * grid_sync() in for and team bodies: their loops over indices (teams)
 * give threads different trip counts, so a barrier inside one would
 * deadlock; reductions with strategy grid_sync use it in their own
 * template. */
static void plan_cooperative(const ggi_kernel *k, ggi_plan *p)
{
  if (k->launch != GG_LAUNCH_COOPERATIVE) return;
  p->grid_rule = GG_GRID_RESIDENT;
  p->cap_resident = 1;
  p->features |= GG_FEAT_COOPERATIVE;
}

/* for: one template. */
int ggi_plan_for(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  (void)target, (void)a, (void)d;
  p->template_path = "common/for.cuh";
  p->grid_rule = GG_GRID_COVER;
  p->features = view_features(k);
  plan_cooperative(k, p);
  return 0;
}

/* team: one template (a team reduce: the reduce's pieces around the team
 * loop, reduce_plan.c). */
int ggi_plan_team(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  (void)target;
  p->template_path = "common/team.cuh";
  p->grid_rule = GG_GRID_LEAGUE;
  /* scratch views, then 8 bytes per thread for team_sum/min/max */
  p->shared_bytes = scratch_bytes(k) + 8u * (uint32_t)k->spec.block;
  /* a team is exactly team_size threads: fewer would compute part of
   * it, more would overrun team_sum's 8 bytes per thread */
  p->min_threads = p->max_threads = k->spec.block;
  if (ggi_is_team_reduce(k) && ggi_team_reduce_plan(k, a, p, d) != 0) return -1;
  p->features = view_features(k);
  plan_cooperative(k, p);
  return 0;
}

/* ---- the argument struct ---- */

static const char *stride_name(ggi_arena *a, const char *view, int dim)
{
  char buf[96];
  snprintf(buf, sizeof buf, "%s_s%d", view, dim);
  return ggi_strdup(a, buf);
}

/* Fields in ABI order (docs/internals.md): params, run-time extents,
 * strides, hidden fields; offsets by natural alignment. */
static int plan_abi(const ggi_kernel *k, ggi_plan *p, ggi_arena *a, ggi_diag *d)
{
  int max = k->nparams + k->nextents + GGI_MAX_RANK * k->nparams + 2;
  ggi_field *f = ggi_alloc(a, sizeof *f * (size_t)(max > 0 ? max : 1));
  if (!f) return ggi_fail(d, "out of memory");
  int n = 0;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    f[n++] = (ggi_field){pp->name, pp->kind, pp->dtype, i, GG_HIDDEN_NONE, 0,
                         pp->kind == GG_PARAM_VIEW ? 8 : ggi_dtype_size(pp->dtype), 0};
  }
  for (int i = 0; i < k->nextents; i++)
    f[n++] = (ggi_field){k->extents[i], GG_PARAM_EXTENT, GG_I64, -1, GG_HIDDEN_NONE, 0, 8, 0};
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind != GG_PARAM_VIEW || pp->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < pp->rank; dim++)
      f[n++] = (ggi_field){stride_name(a, pp->name, dim), GG_PARAM_STRIDE, GG_I64, i,
                           GG_HIDDEN_NONE, 0, 8, 0};
  }
  if (p->ws_fixed || p->ws_per_block)
    f[n++] = (ggi_field){"gg_ws", GG_PARAM_HIDDEN, GG_PTR, -1, GG_HIDDEN_WORKSPACE, 0, 8, 0};
  if (p->needs_seq)
    f[n++] = (ggi_field){"gg_seq", GG_PARAM_HIDDEN, GG_U32, -1, GG_HIDDEN_SEQ, 0, 4, 0};

  unsigned off = 0, align = 1;
  for (int i = 0; i < n; i++) {
    if (!f[i].name) return ggi_fail(d, "out of memory");
    f[i].align = f[i].size; /* every field type is naturally aligned */
    off = (off + f[i].align - 1) / f[i].align * f[i].align;
    f[i].offset = off;
    off += f[i].size;
    if (f[i].align > align) align = f[i].align;
  }
  p->args = (ggi_abi){n, f, off ? (off + align - 1) / align * align : 0, align};
  return 0;
}

/* ---- the stage ---- */

/* Programmatic dependent launch: every kernel launched on its own with a
 * plain (not cooperative) launch gets the classic wrapper's PDL entry
 * (dict.c's PDL_ENTRY): griddepcontrol.wait before the body, so that a
 * launch with the programmatic-stream-serialization attribute may start
 * it while the previous kernel of the stream still runs, and
 * launch_dependents, so that the next one may start early in turn.
 * Frames and persistent kernels never go through that wrapper;
 * cooperative launches are left alone (the driver takes one attribute
 * set per launch, and those grids fill the device anyway). */
static int pdl_ready(const ggi_kernel *k, const ggi_plan *p)
{
  return !ggi_pattern_is(k, GGI_PAT_CHAIN) && k->launch == GG_LAUNCH_CLASSIC &&
         !(p->features & GG_FEAT_COOPERATIVE);
}

int ggi_plan_kernel(ggi_module *m, ggi_kernel *k, unsigned target, ggi_diag *d)
{
  ggi_plan *p = ggi_alloc(m->arena, sizeof *p);
  if (!p) return ggi_fail_at(d, m->file, k->line, "out of memory");
  memset(p, 0, sizeof *p);
  ggi_diag pd = {{0}};
  const ggi_pattern_row *row = ggi_pattern_of(k->pattern);
  int rc = row->plan(k, target, m->arena, p, &pd);
  /* a kernel's views' types and spaces; a frame's plan has its stages' */
  if (rc == 0 && !(row->props & GGI_PAT_CHAIN)) p->features |= view_features(k);
  if (rc == 0 && pdl_ready(k, p)) p->features |= GG_FEAT_PDL;
  if (rc == 0) rc = plan_abi(k, p, m->arena, &pd);
  const char *kind = row->kind;
  if (rc != 0) return ggi_fail_at(d, m->file, k->line, "%s '%s': %s", kind, k->name, pd.msg);
  /* shared memory no device of the target can give one block (the
   * runtime asks for the opt-in carve-out above 48 KiB; this is the most
   * any supported device allows) */
  if (p->shared_bytes > ggi_shared_limit(target)) {
    /* what takes it: a gemm's K step of panels (then the reduction's
       partials), else the block's threads and items */
    const int gemm = k->pattern == GG_PATTERN_GEMM;
    return ggi_fail_at(d, m->file, gemm && k->gemm_tile_line ? k->gemm_tile_line : k->line,
                       "%s '%s': needs %u bytes of shared memory per block (block %d); a %s "
                       "block holds at most %u: %s",
                       kind, k->name, (unsigned)p->shared_bytes, k->spec.block,
                       target == GGI_TARGET_HIP ? "HIP (AMD LDS)" : "CUDA",
                       (unsigned)ggi_shared_limit(target),
                       gemm ? "give a smaller tile (its tk is the K step), or fewer into values"
                            : "use a smaller block or items");
  }
  k->plan[ggi_plan_slot(target)] = p;
  return 0;
}
