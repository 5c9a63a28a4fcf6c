/*
 * plan.h - how one kernel is rendered: which pattern template, how much
 * shared memory and workspace, how the grid is sized, and the extra
 * template values the pattern needs.  specialize.c fills ggi_spec (the
 * choices); the plan turns the choices into what emit.c renders and what
 * the module descriptor says.
 *
 * Reduce, scan and tile_reduce plans come from reduce_plan.c; for and team
 * plans from emit.c.
 */
#ifndef GGI_PLAN_H
#define GGI_PLAN_H

#include <stdint.h>
#include "ir.h"

#define GGI_PLAN_MAX_VARS 24
#define GGI_PLAN_MAX_PARTS 8

/* A kernel's source is one template (template_path, for and team) or an
 * ordered list of pieces (template_parts, reduce: head + phase-2 block +
 * workspace + phase-3 tail) rendered with the same values and
 * concatenated, so that strategies share their common code.  The plan
 * chooses the pieces; the templates hold no decisions.  With nparts > 0,
 * template_path is template_parts[0]. */

typedef struct ggi_plan {
  const char *template_path;   /* relative to templates/, e.g. "common/scan.cuh" */
  const char *template_parts[GGI_PLAN_MAX_PARTS]; /* when nparts > 0: rendered in order */
  int nparts;
  uint32_t shared_bytes;       /* dynamic shared memory per block */
  uint32_t ws_fixed, ws_per_block; /* workspace, see gg_kernel_desc */
  int needs_seq;               /* kernel uses the gg_seq hidden field */
  gg_grid_rule grid_rule;
  int64_t grid_fixed;
  int small_block;             /* see gg_kernel_desc.small_block */
  int64_t small_work;
  int cap_resident;
  unsigned features;           /* GG_FEAT_* */
  /* Threads per (pseudo-)block the body is correct with, for the layouts
   * of a persistent kernel: at least min_threads (a team's team_size), at
   * most max_threads (its shared memory is sized for that many); 0 = no
   * bound.  Classic launches use block (or small_block), always within. */
  int min_threads, max_threads;
  int nvars;                   /* extra {{KEY}} values for the template */
  const char *keys[GGI_PLAN_MAX_VARS];
  const char *values[GGI_PLAN_MAX_VARS];
} ggi_plan;

/* The most dynamic shared memory one block may have on any device the
 * target supports: CUDA sm_90 / sm_100 opt in to 227 KiB (older archs
 * less: the runtime checks the device it runs on); AMD LDS is 64 KiB. */
#define GGI_SHARED_MAX_CUDA (227u * 1024u)
#define GGI_SHARED_MAX_HIP (64u * 1024u)
uint32_t ggi_shared_limit(unsigned target);

/* Does merging with an atomic of op on acc_type (into: the output's
 * element type) need a compare-and-swap loop on target?  The loader (to
 * refuse it without allow_cas) and the planner (to emit it) both ask
 * this one function.  target 0: on any target the kernel may run on
 * (the union of what CUDA and HIP lack). */
int ggi_atomic_needs_cas(ggi_op op, gg_dtype acc_type, gg_dtype into, unsigned targets);

/* The identity of op on k's accumulator type, as C text (op
 * GGI_OP_CUSTOM: the workload's identity). */
const char *ggi_reduce_identity(const ggi_kernel *k, ggi_op op);

/* 1 when a reduce's values have different operators (op = { "min", "max" }). */
int ggi_ops_mixed(const ggi_kernel *k);

/* The plan of a reduce, scan or tile_reduce kernel (after ggi_specialize).
 * Strings are allocated in arena a.  Returns 0, or -1 with d->msg set. */
int ggi_reduce_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d);

/* For specialize.c: the strategy `auto` picks for a reduce-like kernel,
 * with one sentence saying why (static string or arena string). */
ggi_strategy ggi_reduce_auto(const ggi_kernel *k, const char **why);

/* Strategy names as written in workload files ("warp_shuffle", ...). */
const char *ggi_strategy_name(ggi_strategy s);

/* For specialize.c: block size, items per thread and load vector width of
 * a reduce-like kernel (knobs the workload wrote win), with one sentence
 * saying why.  spec.block / spec.items must be these (or the workload's):
 * the scan's grid is one tile of block x items per block, and its
 * workspace holds one look-back flag per tile. */
void ggi_reduce_shape(const ggi_kernel *k, int *block, int *items, int *vector, const char **why);

/* For specialize.c / explain: 1 when the kernel's atomic merge (strategy
 * global_atomic or shared_atomic) is a compare-and-swap loop on target,
 * with the sentence for `gpugen explain`. */
int ggi_reduce_needs_cas(const ggi_kernel *k, unsigned target, const char **why);

#endif
