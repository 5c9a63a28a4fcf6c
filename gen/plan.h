/*
 * plan.h - the plan stage: every decision about how a kernel runs, made
 * once per kernel and target after ggi_specialize, and stored in the IR.
 *
 * specialize.c makes the choices `auto` leaves open (block, items,
 * vector, strategy) and says why; the plan turns them into figures:
 * which pattern template, shared memory, workspace, grid rule, the
 * argument struct's ABI layout, a frame's barriers, and each persistent
 * kernel's shape on each target.  Emit, `explain`, `list`, the
 * descriptor writer and the runtime (through the descriptor) only read
 * these; nothing recomputes them.
 *
 * plan.c runs the stage and plans for and team kernels; reduce_plan.c
 * plans reduce, scan and tile_reduce; frame_schedule.c (with frame_deps.c and
 * frame_exchange.c) schedules frames and frame_plan.c plans them;
 * plan_persistent.c shapes persistent kernels.
 */
#ifndef GGI_PLAN_H
#define GGI_PLAN_H

#include <stdint.h>
#include "ir.h"
#include "vocab.h"

#define GGI_PLAN_MAX_VARS 48
#define GGI_PLAN_MAX_PARTS 10

/* A kernel's source is one template (template_path, for and team) or an
 * ordered list of pieces (template_parts, reduce: head + phase-2 block +
 * workspace + phase-3 tail) rendered with the same values and
 * concatenated, so that strategies share their common code.  The plan
 * chooses the pieces; the templates hold no decisions.  With nparts > 0,
 * template_path is template_parts[0]. */

/* One field of a kernel's argument struct, in ABI order (docs/internals.md). */
typedef struct ggi_field {
  const char *name;
  gg_param_kind kind;
  gg_dtype dtype;         /* element type of a view, value type otherwise */
  int param;              /* index into k->params for scalars, views and strides; -1 otherwise */
  int hidden;             /* GG_HIDDEN_* */
  unsigned offset, size, align;
} ggi_field;

/* The argument struct: params, run-time extents, strides, hidden fields,
 * each naturally aligned. */
typedef struct ggi_abi {
  int n;
  const ggi_field *f;
  unsigned size, align;
} ggi_abi;

typedef struct ggi_plan {
  const char *template_path;   /* relative to templates/, e.g. "common/scan.cuh" */
  const char *template_parts[GGI_PLAN_MAX_PARTS]; /* when nparts > 0: rendered in order */
  int nparts;
  uint32_t shared_bytes;       /* dynamic shared memory per block */
  uint32_t ws_fixed, ws_per_block; /* workspace, see gg_kernel_desc */
  int needs_seq;               /* kernel uses the gg_seq hidden field */
  gg_grid_rule grid_rule;
  int64_t grid_fixed;
  int64_t league_blocks;       /* GG_GRID_LEAGUE: blocks per league item (gemm: C's tiles); 0 = 1 */
  int small_block;             /* see gg_kernel_desc.small_block */
  int64_t small_work;
  int cap_resident;
  unsigned features;           /* GG_FEAT_* */
  /* Threads per (pseudo-)block the body is correct with, for the arrangements
   * of a persistent kernel: at least min_threads (a team's team_size), at
   * most max_threads (its shared memory is sized for that many); 0 = no
   * bound.  Classic launches use block (or small_block), always within. */
  int min_threads, max_threads;
  /* 1: the body needs a whole hardware block (it calls __syncthreads and
   * reads threadIdx itself: cuBLASDx), so a persistent kernel running it
   * must not split blocks into pseudo-blocks (groups = 1) */
  int whole_block;
  int nvars;                   /* extra {{KEY}} values for the template */
  const char *keys[GGI_PLAN_MAX_VARS];
  const char *values[GGI_PLAN_MAX_VARS];
  ggi_abi args;                /* the argument struct (after the figures above) */
} ggi_plan;

/* The shape of a persistent kernel on one target. */
typedef struct ggi_persistent_shape {
  int block;          /* hardware threads per block: gg_persistent_desc.block_size */
  int blocks;         /* hardware blocks: 1, or p->blocks (0 = all co-resident) */
  int groups;         /* pseudo-blocks per hardware block (1 unless thread_groups/hybrid) */
  int group_threads;  /* threads per pseudo-block */
  uint32_t group_smem;   /* dynamic shared memory per pseudo-block: the largest command's, 16-byte multiple */
  uint32_t shared_bytes; /* per hardware block: groups x group_smem */
  uint32_t slot_bytes;   /* the largest command's argument struct: one mailbox slot */
  /* Slots one warp-wide read of a ring takes (32 / tagged words per
   * slot, GG_MBOX_WORDS): commands the host queued ahead then need no poll
   * of their own.  1: one slot per read (a slot of more than 16 words). */
  int ring_batch;
  /* per command (in p->commands order): its workspace on this kernel's
   * virtual grid and the threads per pseudo-block its body works with */
  gg_persistent_command cmd[GG_COMMANDS_MAX];
  /* frames on several GPUs: the GPUs the kernel's frames run on (1: one,
   * no team), its symmetric workspace's bytes and each command's share
   * of it (a frame's exchange stages' areas: frame_schedule.c) */
  int gpus;
  uint64_t sym_bytes;
  uint64_t sym_off[GG_COMMANDS_MAX];
  /* one sentence per choice, for `gpugen explain` */
  int nwhy;
  char why[8][200];
} ggi_persistent_shape;

/* Sets template key `key` of plan p (a {{KEY}} of its template) to a
 * copy of value in arena a.  Returns 0, or -1 when out of memory or keys. */
int ggi_plan_set(ggi_plan *p, ggi_arena *a, const char *key, const char *value);

/* The stage (plan_module.c): plans every kernel (frames after their
 * stages) and every persistent kernel for each target it has, and stores
 * them in the IR.  ggi_specialize() calls it last.  Returns 0, or -1 with
 * d->msg = "file:line: ..." (e.g. more shared memory than a block may have). */
int ggi_plan_module(ggi_module *m, ggi_diag *d);

/* plan.c, for the stage: what kernel k's views allow (halo exchange,
 * staged steps), decided once before any frame reads them; and k's plan
 * for target through its pattern's planner, stored in k->plan.  Returns
 * 0, or -1 with d->msg = "file:line: ...". */
void ggi_plan_views(ggi_kernel *k);
int ggi_plan_kernel(ggi_module *m, ggi_kernel *k, unsigned target, ggi_diag *d);

/* The slot of target's plan in ggi_kernel.plan[] / ggi_persistent.shape[]. */
static inline int ggi_plan_slot(unsigned target) { return target == GGI_TARGET_HIP ? 1 : 0; }

/* The stored plan of kernel k / persistent kernel p on target
 * (GGI_TARGET_CUDA or GGI_TARGET_HIP); NULL when it does not have it.
 * Reads of the IR, inline: the stages after the plan (and the frame's
 * schedule inside it) read stored plans without calling back into
 * plan.c. */
static inline const ggi_plan *ggi_plan_of(const ggi_kernel *k, unsigned target) {
  return (k->targets & target) ? k->plan[ggi_plan_slot(target)] : NULL;
}
/* 1 when plan p runs on exactly one thread count per (pseudo-)block: a
 * whole MathDx block, or a team (min_threads = max_threads = team_size). */
static inline int ggi_plan_exact(const ggi_plan *p) {
  return p && (p->whole_block || (p->min_threads > 0 && p->min_threads == p->max_threads));
}
static inline const ggi_persistent_shape *ggi_shape_of(const ggi_persistent *p,
                                                       unsigned target) {
  return (p->targets & target) ? p->shape[ggi_plan_slot(target)] : NULL;
}

/* The target a descriptor describes when a kernel has several: cuda when
 * it has cuda, else hip (the runtime picks the source by device, and
 * every figure the descriptor carries is checked for both). */
static inline unsigned ggi_desc_target(unsigned targets) {
  return (targets & GGI_TARGET_CUDA) ? GGI_TARGET_CUDA : GGI_TARGET_HIP;
}

/* The shape of persistent kernel p on target, computed from its
 * commands' stored plans (the stage calls this; tests call it on
 * hand-made modules).  Returns 0, or -1 with d->msg = "file:line: ...". */
int ggi_persistent_shape_of(const ggi_module *m, const ggi_persistent *p, unsigned target,
                            ggi_persistent_shape *s, ggi_diag *d);

/* Threads per pseudo-block of persistent kernel p (block / groups, as
 * ggi_persistent_shape_of decides them; 0 when that shape is invalid).
 * Needs no plan: frames size their neighbour waits with it before the
 * persistent kernels are planned. */
int ggi_persistent_group_threads(const ggi_module *m, const ggi_persistent *p);

/* The most dynamic shared memory one block may have on any device the
 * target supports: CUDA sm_90 / sm_100 opt in to 227 KiB (older archs
 * less: the runtime checks the device it runs on); AMD LDS is 64 KiB. */
#define GGI_SHARED_MAX_CUDA (227u * 1024u)
#define GGI_SHARED_MAX_HIP (64u * 1024u)
uint32_t ggi_shared_limit(unsigned target);

/* The identity of op on k's accumulator type, as C text (op
 * GGI_OP_CUSTOM: the workload's identity). */
const char *ggi_reduce_identity(const ggi_kernel *k, ggi_op op);


/* A team kernel with `into` (ggi_is_team_reduce): the strategy its
 * threads and blocks combine with (the workload's, or warp_shuffle for
 * auto), with one sentence saying why; and its plan, on top of the team's
 * own (plan.c sets template, shared memory for scratch and team_sum, and
 * thread bounds first).  Returns 0, or -1 with d->msg set. */
ggi_strategy ggi_team_reduce_strategy(const ggi_kernel *k, const char **why);
int ggi_team_reduce_plan(const ggi_kernel *k, ggi_arena *a, ggi_plan *p, ggi_diag *d);
/* The template pieces of a pattern whose statements may contribute()
 * (fft, gemm with post): its own piece `body` (the work and the
 * statements), then `tail` (the kernel's body, nothing to reduce), or,
 * with into, a team reduce's pieces (ggi_team_reduce_plan: its shared
 * memory after the pattern's, its workspace, one partial per block)
 * around it and `reduce_tail`. */
int ggi_contribute_pieces(const ggi_kernel *k, ggi_arena *a, ggi_plan *p, ggi_diag *d,
                          const char *body, const char *tail, const char *reduce_tail);

/* tile = "auto": the plan's tile first (what ggi_gemm_shape chooses),
 * then the other tiles worth measuring, nearest first (the other
 * orientation of its area, then the tiles for 2x, 1/2, 4x, 1/4, 1/8 as
 * many tiles), none twice; how many (<= max). */
int ggi_gemm_tile_candidates(const ggi_kernel *k, int out[][3], int max);
/* The plan of a gemm kernel (gemm_plan.c): cuBLASDx block GEMM, shared
 * memory for A, B and C, one block per batch item.  Returns 0, or -1 with
 * d->msg set (more shared memory than a block has). */
/* The block tile of gemm kernel k (tile[0] x tile[1] of C, K in steps of
 * tile[2]) and its block: the workload's tile = {...} and block when
 * given, else chosen here; one sentence each in why[0..1], and why[2] on
 * the element types and ops.  Returns 0, or -1 with d->msg (a sentence, no
 * place) when the written tile does not fit. */
int ggi_gemm_shape(const ggi_kernel *k, int tile[3], int *block, const char *why[3],
                   ggi_arena *a, ggi_diag *d);
/* split_k: K has a step for every split, and a block's partial tile fits
 * its workspace slot (gemm_plan.c); 0, or -1 with d set. */
int ggi_gemm_split_fits(const ggi_kernel *k, const int tile[3], ggi_diag *d);
int ggi_gemm_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d);

/* The plan of an fft kernel (fft_plan.c): cuFFTDx block FFT, one per
 * batch item, its data in shared memory. */
int ggi_fft_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d);

/* For specialize.c: the strategy `auto` picks for a reduce-like kernel,
 * with one sentence saying why (static string or arena string). */
ggi_strategy ggi_reduce_auto(const ggi_kernel *k, const char **why);

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

/* ---- own_index.c: what a body touches, proven from its text ---- */

/* Whether kernel kn's body touches view `view` only at its own thread's
 * element: every occurrence of the name is the call view(i0, ...) whose
 * indices are exactly the range's index names in order (as many as the
 * view's rank, which must be the range's), never under & (no pointer to
 * a neighbour) and never the bare name (the pointer itself); no index
 * name is redeclared (float i, auto [i, j], a lambda's (long i)); the
 * body has no preprocessor directive or _Pragma (a macro could hide any
 * of that) and names nothing of gpugen's own (gg_...).
 * Conservative: 1 only when proven from the text; frames use it to
 * drop barriers between stages of a frame.  For a reduce, every value
 * expression must pass. */
int ggi_body_own_index(const ggi_kernel *kn, const ggi_param *view);
/* The same for every param of kn at once, from one scan per text: the
 * table ggi_specialize keeps in kn->own_index (in arena a; NULL when kn
 * has no params or memory ran out). */
const char *ggi_body_own_index_table(const ggi_kernel *kn, ggi_arena *a);
/* For a view that passed ggi_body_own_index: whether the body may read
 * it (a use other than V(i, ...) = ...); 0 when it only assigns it or
 * never names it. */
int ggi_body_reads_own(const ggi_kernel *kn, const ggi_param *view);
/* A team kernel touches `view` only at its own league item,
 * V(league_rank, ...) (own_index.c says how strictly). */
int ggi_body_own_item(const ggi_kernel *kn, const ggi_param *view);
/* A for kernel touches `view` only through calls V(...) of its macro
 * (which checks a declared halo at run time), never its pointer or an
 * element's address (own_index.c says how strictly). */
int ggi_body_calls_only(const ggi_kernel *kn, const ggi_param *view);

#endif
