/*
 * ir.h - gpugen's intermediate representation (internal to gen/).
 *
 * The Lua loader (load.c) fills it from a workload file and validates it;
 * specialize.c makes the choices that `auto` leaves open and records why;
 * emit.c renders templates from it.  Plain C, no Lua types: once loading is
 * done the Lua state is closed.  All strings live in the module's arena and
 * are freed by ggi_module_free().
 */
#ifndef GGI_IR_H
#define GGI_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "gg_module.h"

#define GGI_MAX_RANK 3
#define GGI_MAX_VALUES 8     /* values of one multi-value reduce */
#define GGI_MAX_STAGES 16    /* stages of one frame */

/* The vocabularies below are each one list, X(enum, spelling in workload
 * files), from which the enum and its name table (vocab.c) are made, as
 * gg_module.h does for element types and spaces: a name cannot drift
 * from its constant. */

/* Targets, in bit order: X(bit, spelling); GGI_TARGET_CUDA etc. are masks. */
#define GGI_TARGET_LIST(X) X(GGI_TARGET_CUDA, "cuda") X(GGI_TARGET_HIP, "hip")
enum {
#define GGI_TARGET_BIT_(e, name) e##_BIT,
  GGI_TARGET_LIST(GGI_TARGET_BIT_)
#undef GGI_TARGET_BIT_
  GGI_TARGET_COUNT
};
enum {
#define GGI_TARGET_MASK_(e, name) e = 1u << e##_BIT,
  GGI_TARGET_LIST(GGI_TARGET_MASK_)
#undef GGI_TARGET_MASK_
};

/* Operators a reduction names (op = ...); GGI_OP_CUSTOM, after the list,
 * is one written as combine = "..." (spelled "custom" in reports). */
#define GGI_OP_LIST(X)                                                                        \
  X(GGI_OP_SUM, "sum") X(GGI_OP_MIN, "min") X(GGI_OP_MAX, "max") X(GGI_OP_PROD, "prod")
typedef enum ggi_op {
#define GGI_OP_ENUM_(e, name) e,
  GGI_OP_LIST(GGI_OP_ENUM_)
#undef GGI_OP_ENUM_
  GGI_OP_CUSTOM
} ggi_op;

#define GGI_STRATEGY_LIST(X)                                                                  \
  X(GGI_STRAT_AUTO, "auto")                                                                   \
  X(GGI_STRAT_GLOBAL_ATOMIC, "global_atomic") /* every thread: one atomic on the result      \
                                                 (only by name) */                            \
  X(GGI_STRAT_SHARED_ATOMIC, "shared_atomic") /* shared-memory atomic per block, then one     \
                                                 global atomic */                             \
  X(GGI_STRAT_WARP_SHUFFLE, "warp_shuffle")   /* shuffles within a warp, then across warps */ \
  X(GGI_STRAT_SHARED_TREE, "shared_tree")     /* classic shared-memory tree */                \
  X(GGI_STRAT_CG_TILE, "cg_tile")             /* thread_block_tile reductions */              \
  X(GGI_STRAT_GRID_SYNC, "grid_sync")         /* two phases in one cooperative kernel */      \
  X(GGI_STRAT_DETERMINISTIC, "deterministic") /* fixed order, bit-identical run to run */
typedef enum ggi_strategy {
#define GGI_STRATEGY_ENUM_(e, name) e,
  GGI_STRATEGY_LIST(GGI_STRATEGY_ENUM_)
#undef GGI_STRATEGY_ENUM_
  GGI_STRAT_COUNT
} ggi_strategy;

#define GGI_SCAN_LIST(X) X(GGI_SCAN_INCLUSIVE, "inclusive") X(GGI_SCAN_EXCLUSIVE, "exclusive")
typedef enum ggi_scan_kind {
#define GGI_SCAN_ENUM_(e, name) e,
  GGI_SCAN_LIST(GGI_SCAN_ENUM_)
#undef GGI_SCAN_ENUM_
} ggi_scan_kind;

/* What a frame's exchange stage does across its GPUs ({ exchange = "..." }):
 * X(enum, spelling, the pattern of the stage kernel the loader makes for
 * it: load_exchange.c). */
#define GGI_EXCHANGE_LIST(X)                                   \
  X(GGI_EXCHANGE_ALLREDUCE, "allreduce", GG_PATTERN_ALLREDUCE) \
  X(GGI_EXCHANGE_BROADCAST, "broadcast", GG_PATTERN_BROADCAST) \
  X(GGI_EXCHANGE_ALLGATHER, "allgather", GG_PATTERN_ALLGATHER) \
  X(GGI_EXCHANGE_ALLTOALL, "alltoall", GG_PATTERN_ALLTOALL)     \
  X(GGI_EXCHANGE_HALO, "halo", GG_PATTERN_HALO)
typedef enum ggi_exchange_kind {
#define GGI_EXCHANGE_ENUM_(e, name, pattern) e,
  GGI_EXCHANGE_LIST(GGI_EXCHANGE_ENUM_)
#undef GGI_EXCHANGE_ENUM_
  GGI_EXCHANGE_COUNT
} ggi_exchange_kind;

/* An extent: a constant, or the name of a run-time extent. */
typedef struct ggi_extent {
  const char *name; /* NULL for a constant */
  int64_t value;
} ggi_extent;

/* One declared parameter: a scalar or a view. */
typedef struct ggi_param {
  const char *name;
  int line;
  gg_param_kind kind;  /* GG_PARAM_SCALAR or GG_PARAM_VIEW */
  gg_dtype dtype;
  int rank;            /* 0 for scalars */
  ggi_extent ext[GGI_MAX_RANK];
  gg_layout layout;
  gg_space space;
  gg_access access;
  /* halo = h (for kernels, rank-1 views): the body touches the view only
   * at indices within [i - h, i + h] of its own index i; the view's macro
   * checks it (a trap otherwise).  0: not declared. */
  int halo;
  /* A rank-1 for kernel's view (the plan stage's, plan.c): how a frame
   * may move its elements between (pseudo-)blocks in tagged words
   * (templates/global/halo_exchange.cuh).  GGI_XCHG_READ: a halo view
   * ("in") the body touches only through its macro, which may then take a
   * neighbour chunk's element from a publication; GGI_XCHG_PUBLISH: a
   * contiguous view the body writes only at its own index, whose chunk
   * edges the body may publish.  0: neither.  exchanged: what a frame
   * of the module uses of it (gen/frame_exchange.c), which the kernel's source
   * then has (its body's gg_io, gen/dict.c). */
  int exchange, exchanged;
  /* A for kernel's view read (in, inout) only at the thread's own index,
   * over the whole range (plan.c, plan_staging): its loop loads it for
   * several steps into registers before the bodies run on them. */
  int staged;
  const char *stage_why; /* not staged: why (plan_staging; gpugen explain) */
} ggi_param;

enum { GGI_XCHG_READ = 1, GGI_XCHG_PUBLISH = 2 };

/* Whether two own indices of view p may be one element: run-time strides
 * of rank > 1 may overlap (strides 1, 1 make V(0, 1) and V(1, 0) one).
 * Such a view is never "touched only at the thread's own element": a
 * frame keeps its barrier (frame_deps.c), a for loop does not stage it
 * (plan.c). */
static inline int ggi_view_may_alias(const ggi_param *p)
{
  return p->layout == GG_LAYOUT_STRIDE && p->rank > 1;
}

/* A view's outer index, the slowest in memory: the first for layout
 * right, the last for left (0 for a scalar).  Exchanges cut a view into
 * runs of it (parts, blocks, halo rows), each one contiguous range of
 * elements. */
static inline int ggi_outer_dim(const ggi_param *p)
{
  return p->layout == GG_LAYOUT_LEFT && p->rank > 0 ? p->rank - 1 : 0;
}

/* What specialize.c chose, and why (shown by `gpugen explain`). */
typedef struct ggi_spec {
  ggi_strategy strategy;
  int block, items, vector;
  int cas_emulation;        /* atomics emulated with compare-and-swap */
  int gemm_tile[3];         /* gemm: C's block tile tm x tn and the K step tk (gemm_plan.c) */
  int first_fastest;        /* the range's first index varies fastest across threads (its
                               views vote by layout); else the last (specialize.c) */
  int n_why;
  const char *why[8];       /* one sentence per choice */
} ggi_spec;

/* One stage of a frame: a kernel of the module with every argument bound
 * to a parameter of the frame or to a constant, and what the frame's plan
 * (gen/frame_schedule.c) decided about the stage: whether a grid barrier or a
 * block barrier comes before it, and why. */
enum { GGI_SYNC_SHARED = 1, GGI_SYNC_ITEMS = 2, GGI_SYNC_NEIGHBOURS = 3, GGI_SYNC_HALO = 4,
       GGI_SYNC_ORDERED = 5 };

/* A stage's halo exchange, per kernel param (gen/frame_exchange.c decides it). */
typedef struct ggi_xchg {
  int pub_h;         /* > 0: the stage publishes this view's chunk edges, pub_h indices at
                        each end (the widest halo of the stages that read them) */
  int pub_chunks;    /* ... in slots for this many chunks per (pseudo-)block */
  int src, src_param; /* >= 0: this halo view reads the publication of stage src's
                        param src_param for indices of neighbour chunks */
} ggi_xchg;
struct ggi_kernel;
typedef struct ggi_stage {
  const char *kernel;
  int kernel_index;         /* into ggi_module.kernels; -1 for an exchange stage */
  /* An exchange stage ({ exchange = "allreduce", ... }): the kernel the
   * loader made for it (load_exchange.c), the frame's own, in no list of
   * the module's kernels; and its area of the frame's symmetric workspace
   * (the schedule's: sym_off bytes from the frame's share) */
  struct ggi_kernel *own;
  uint64_t sym_off;
  int line;                 /* line of the stage's { "kernel", ... } entry */
  int *bind;                /* per kernel param: index of the frame param, or -1 (constant) */
  const char **constant;    /* per kernel param bound to a constant: its C literal */
  ggi_extent *ext;          /* per kernel run-time extent: the frame's extent (name) or a constant */
  /* the plan */
  int barrier;              /* a grid barrier before this stage */
  int block_sync;           /* only a barrier over the (pseudo-)block (GGI_SYNC_...): shared
                               memory is reused, or data passes within league items; or
                               NEIGHBOURS: wait until (pseudo-)blocks b - 1 and b + 1 have
                               finished every earlier stage (declared halos); HALO: the
                               same wait, or only a block barrier when the frame's halos
                               travel in tagged words (xchg); ORDERED: a block barrier, an
                               earlier neighbour wait having ordered its neighbours' part */
  int64_t chunk;            /* a rank-1 for stage: the consecutive indices one (pseudo-)block
                               takes per grid-stride step (frame threads x vector), the
                               largest halo its neighbour wait covers; 0 otherwise */
  int fused;                /* a reduce that runs the for stage before it inside its fold
                               (gen/frame_deps.c: fusion); that stage only waits, then this runs */
  int after;                /* the earlier stage that forces the barrier (-1: none) */
  const char *why;          /* one sentence for `gpugen explain` */
  ggi_xchg *xchg;           /* per kernel param: its halo exchange */
} ggi_stage;

typedef struct ggi_frame {
  const struct ggi_kernel *kernels; /* the module's kernels, which the stages index */
  int nstages;
  ggi_stage stages[GGI_MAX_STAGES];
  int nbarriers;            /* grid barriers in one frame (the plan's) */
  int nneighbours;          /* neighbour waits in one frame (GGI_SYNC_NEIGHBOURS and _HALO stages) */
  int npublished;           /* views whose chunk edges a stage publishes (ggi_xchg.pub_h) */
  /* the fewest threads per (pseudo-)block of the persistent kernels that
   * run the frame (0: none runs it): what every stage's chunk is sized
   * for, and why */
  int threads;
  const char *threads_why;
  /* result = "view": the frame param returned in the acknowledgement
   * (-1: none), and the plan's decision on how the ack is stored */
  int result;
  int result_line;
  int ack_relaxed;          /* no system-scope release: nothing else for the host */
  int ack_noted;            /* 0, or 1 + the stage whose reduction alone writes the
                               result and notes it (gg_result_note) */
  const char *ack_why;      /* one sentence for `gpugen explain` */
  /* gpus = N: the GPUs the frame runs on, one process each (1: one GPU,
   * no exchange stage), and the bytes of symmetric memory its exchange
   * stages' areas take (the schedule's) */
  int gpus;
  uint64_t sym_bytes;
} ggi_frame;

typedef struct ggi_kernel {
  const char *name;
  int line;                 /* line of `kernel "name"` */
  gg_pattern pattern;
  unsigned targets;         /* GGI_TARGET_* */

  int rank;                 /* of the range */
  ggi_extent range[GGI_MAX_RANK];
  const char *index[GGI_MAX_RANK];

  int nparams;
  ggi_param *params;
  int nextents;             /* run-time extents, in order of first use */
  const char **extents;

  const char *body;         /* for, team */
  int body_line;            /* line where the body text starts */

  /* reduce, scan, tile_reduce */
  ggi_op op;                /* the operator (of value 0 when op lists several) */
  ggi_op ops[GGI_MAX_VALUES]; /* reduce: the operator of each value (op = { ... }) */
  const char *combine;      /* GGI_OP_CUSTOM: expression in a and b */
  const char *identity;     /* GGI_OP_CUSTOM: identity value */
  int combine_line, identity_line; /* their fields' lines */
  int nvalues;
  const char *values[GGI_MAX_VALUES];
  int value_line;
  const char *into;         /* name of the output view */
  gg_dtype acc_type;        /* accumulator type */
  ggi_scan_kind scan_kind;
  int tile;                 /* tile_reduce: elements per tile */

  /* team */
  ggi_extent league;
  int team_size;
  int nscratch;
  ggi_param *scratch;       /* views in shared memory, static extents */

  /* gemm: C = alpha op(A) op(B) + beta C for each batch item (league is
   * the batch: the views' first extent, or 1 for rank-2 views) */
  int gemm_size[3];         /* M, N, K */
  const char *gemm_view[3]; /* the views A, B, C */
  const struct ggi_gemm_type *gemm_type; /* element types: a row of gemm_types.h */
  int gemm_trans[2];        /* op_a, op_b: GGI_GEMM_OP_N, _T or _C (gemm_types.h) */
  const char *gemm_scale[2]; /* alpha, beta: a scalar parameter's name or a C literal */
  const char *gemm_scale_im[2]; /* their imaginary parts (complex types), else "0" */
  int gemm_tile[3];         /* tile = { tm, tn, tk } as written (0: gemm_plan.c chooses) */
  int gemm_tile_line;
  int gemm_tile_auto;       /* tile = "auto": variants.c adds a kernel per other candidate tile */
  int gemm_split;           /* split_k: K in this many ranges on as many blocks (1: not split) */
  int gemm_split_line;
  int variant_of;           /* 1 + the index of the kernel this one is a variant of (a gemm's
                               tile, an fft's threads; a frame's of either); 0: none */
  int variant_threads;      /* a thread-count variant (fft block = "auto"): its threads a block */

  /* fft: one cuFFTDx block FFT of fft_size points per batch item (league is
   * the batch: the views' first extent, or 1 without one) */
  int fft_size;              /* N */
  int fft_inverse;           /* direction: 0 forward, 1 inverse */
  int fft_type;              /* 0 c2c, 1 r2c, 2 c2r (ggi_fft_type_names) */
  const char *fft_view[2];   /* input, output (the same view: in place) */
  int fft_block_auto;        /* block = "auto": variants.c adds a kernel per other thread count */
  /* between = "...": a round trip - the transform, these statements on
   * each element of its result, the opposite transform back (c2c); the
   * post statements are `body` */
  const char *fft_between;
  int fft_between_line;

  /* an exchange stage's kernel (GG_PATTERN_ALLREDUCE, op: sum, min or max
   * over its one view; GG_PATTERN_BROADCAST from GPU root;
   * GG_PATTERN_ALLGATHER, GG_PATTERN_ALLTOALL; or GG_PATTERN_HALO, width
   * rows each way, wrap: GPU N - 1 and GPU 0 neighbours): the GPUs of its
   * frame */
  int gpus;
  int root;
  int width, wrap;

  /* knobs as written (0 / AUTO = let gpugen choose) */
  ggi_strategy strategy;
  int block, items, vector;
  int vector_line;          /* line of `vector = ...` (0 when left out) */
  gg_launch_mode launch;    /* classic or cooperative */
  int allow_cas;            /* allow_cas = true: atomics the target lacks may be
                               emulated with compare-and-swap loops (the loader
                               also sets spec.cas_emulation when a named atomic
                               strategy needs it) */

  ggi_spec spec;            /* filled by ggi_specialize() */
  const struct ggi_plan *plan[2]; /* the plan stage's, per target (cuda, hip): plan.h */
  /* for: grid-stride steps whose staged views (ggi_param.staged) a thread
   * loads before running their bodies (plan.c, plan_staging;
   * templates/common/for.cuh); 0: the plain loop, one body after another */
  int stage_steps;

  /* GG_PATTERN_FRAME: the kernel is a frame; params and extents are the
   * frame's, launch is GG_LAUNCH_PERSISTENT. */
  ggi_frame *frame;

  /* Per param: 1 when the body touches it only at the thread's own index
   * (ggi_body_own_index), worked out once by ggi_specialize; NULL before. */
  const char *own_index;
} ggi_kernel;

/* The kernel stage s of frame f runs: a kernel of the module, or the
 * exchange stage's own. */
static inline const ggi_kernel *ggi_frame_stage(const ggi_frame *f, int s)
{
  return f->stages[s].own ? f->stages[s].own : &f->kernels[f->stages[s].kernel_index];
}

typedef struct ggi_persistent {
  const char *name;
  int line;
  gg_persistent_layout arrangement; /* the workload's layout = "...": how its threads are
                                      arranged in blocks (docs/internals.md, "Words") */
  int ncommands;
  const char *commands[GG_COMMANDS_MAX];
  int command_index[GG_COMMANDS_MAX]; /* into ggi_module.kernels */
  int buffering;            /* 1 single, 2 double, N ring */
  int block, blocks, groups;
  unsigned targets;
  int variant_of;           /* 1 + the index of the persistent kernel this one is a thread-count
                               variant of (an fft's block = "auto": variants.c); 0: none */
  const struct ggi_persistent_shape *shape[2]; /* the plan stage's, per target: plan.h */
} ggi_persistent;

typedef struct ggi_arena ggi_arena;

typedef struct ggi_module {
  const char *name;
  const char *file;         /* path as given on the command line */
  unsigned targets;
  int nkernels;
  ggi_kernel *kernels;
  int npersistent;
  ggi_persistent *persistent;
  ggi_arena *arena;
} ggi_module;


/* Arena: every string and array of a module. */
void *ggi_alloc(ggi_arena *a, size_t n);
const char *ggi_strdup(ggi_arena *a, const char *s);
void ggi_module_free(ggi_module *m);
/* A zeroed module with its own arena and m->file set; NULL when out of memory. */
ggi_module *ggi_module_new(const char *file);

#endif /* GGI_IR_H */
