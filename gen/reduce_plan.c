/*
 * reduce_plan.c - how reduce, scan and tile_reduce kernels are rendered.
 *
 * Every choice about these patterns is made here, in C, and reaches the
 * templates (templates/common/reduce_*.cuh, scan.cuh, tile_reduce.cuh) as
 * plain {{KEY}} values: which template, how wide the loads are, how much
 * shared memory and workspace, how the grid is sized, which atomic call
 * merges a block's result.  The templates hold no decisions.
 *
 * This is the three patterns' own file (their rows' specialize and plan
 * hooks end here): where it compares k->pattern, it asks which of its
 * own three it is, as a pattern's own reader or template would.
 *
 * The shapes, measured on an H100 and argued in the templates:
 *  - reduce, large: 256 threads, four 16-byte loads in flight per thread
 *    per iteration, grid = cover the work but never more blocks than are
 *    co-resident (so the per-block partials in the workspace are bounded);
 *  - reduce, <= 32K static elements: one block (the fast path of
 *    persistent one_block frames), sized so each thread has ~16 elements;
 *  - scan: tiles of 256 threads x SCAN_ITEMS, one tile per block, single
 *    pass with decoupled look-back through per-tile words tagged by gg_seq;
 *  - tile_reduce: a team of S = pow2ceil(min(tile, 32)) lanes per tile.
 */
#include <stdio.h>
#include <string.h>

#include "patterns.h"
#include "plan.h"
#include "vocab.h"

#define SMALL_REDUCE 32768     /* static elements reduced by one block */
#define BIG_BLOCK 1024         /* large reductions: 2 blocks per SM */
#define SMALL_WORK (1 << 20)   /* up to here 256-thread blocks beat BIG_BLOCK */
#define DET_GRID 256           /* deterministic: the grid on every device */
#define LOADS_IN_FLIGHT 4      /* 16-byte loads per thread per iteration */
#define SCAN_RING 262144       /* look-back words: tiles in the ring */

/* The accumulator (vocab.h: ggi_acc_dtype). */
static gg_dtype acc_type(const ggi_kernel *k) { return ggi_acc_dtype(k->acc_type); }

/* Total static work, or -1 when an extent is known only at run time. */
static int64_t static_work(const ggi_kernel *k)
{
  int64_t w = 1;
  for (int r = 0; r < k->rank && r < GGI_MAX_RANK; r++) {
    if (k->range[r].name) return -1;
    w *= k->range[r].value;
  }
  return w;
}

static int nvalues(const ggi_kernel *k)
{
  return k->nvalues < 1 ? 1 : k->nvalues;
}

/* ---- atomics (vocab.h: which need a compare-and-swap loop) ---- */

static int atomic_needs_cas(const ggi_kernel *k, unsigned target)
{
  return ggi_atomic_needs_cas(k->op, k->acc_type, k->acc_type, target);
}

uint32_t ggi_shared_limit(unsigned target)
{
  return target == GGI_TARGET_HIP ? GGI_SHARED_MAX_HIP : GGI_SHARED_MAX_CUDA;
}

static int uses_atomics(ggi_strategy s)
{
  return s == GGI_STRAT_GLOBAL_ATOMIC || s == GGI_STRAT_SHARED_ATOMIC;
}

int ggi_reduce_needs_cas(const ggi_kernel *k, unsigned target, const char **why)
{
  ggi_strategy s = k->spec.strategy != GGI_STRAT_AUTO ? k->spec.strategy : k->strategy;
  if (k->pattern != GG_PATTERN_REDUCE || !uses_atomics(s) || !atomic_needs_cas(k, target))
    return 0;
  if (why)
    *why = "the hardware has no atomic for this type and operator, so the atomic merge "
           "is a compare-and-swap loop (slower under contention; warp_shuffle needs none)";
  return 1;
}

/* The statement that merges v into *p atomically (p, v: ACC_T). */
static const char *atomic_stmt(const ggi_kernel *k, ggi_arena *a)
{
  switch (k->op) {
  case GGI_OP_SUM: return "gg_atomic_add(p, v);";
  case GGI_OP_MIN: return "gg_atomic_min(p, v);";
  case GGI_OP_MAX: return "gg_atomic_max(p, v);";
  case GGI_OP_PROD: return "gg_atomic_cas_combine(p, v, gg_op_mul());";
  default: /* combine_op: the template's functor around GG_COMBINE */
    return "gg_atomic_cas_combine(p, v, combine_op());";
  }
}

/* Is the identity all zero bits?  Then a zero-filled workspace already
 * holds it and the atomic strategies need no first-launch initialisation. */
static int identity_is_zero(const ggi_kernel *k)
{
  if (k->op == GGI_OP_SUM) return 1;
  if (k->op == GGI_OP_MAX && (acc_type(k) == GG_U32 || acc_type(k) == GG_U64)) return 1;
  return 0;
}

const char *ggi_reduce_identity(const ggi_kernel *k, ggi_op op)
{
  switch (op) {
  case GGI_OP_SUM: return "0";
  case GGI_OP_PROD: return "1";
  case GGI_OP_MIN: return ggi_dtype_max(k->acc_type);
  case GGI_OP_MAX: return ggi_dtype_lowest(k->acc_type);
  default: return k->identity ? k->identity : "0";
  }
}

/* ---- choices ---- */

ggi_strategy ggi_reduce_auto(const ggi_kernel *k, const char **why)
{
  const char *w;
  ggi_strategy s = GGI_STRAT_WARP_SHUFFLE;
  int64_t n = static_work(k);
  if (k->pattern == GG_PATTERN_SCAN) {
    w = "scan: one pass with decoupled look-back (each tile publishes its aggregate, "
        "then its inclusive prefix; flags tagged with gg_seq never need clearing)";
  } else if (k->pattern == GG_PATTERN_TILE_REDUCE) {
    w = "tile_reduce: one team of up to 32 lanes per tile, reduced with shuffles";
  } else if (k->launch == GG_LAUNCH_COOPERATIVE) {
    s = GGI_STRAT_GRID_SYNC;
    w = "launch = cooperative: two phases around one grid barrier";
  } else if (n >= 0 && n <= SMALL_REDUCE) {
    w = "<= 32K static elements: one block, warp shuffles then one shuffle across the "
        "warps' partials (no atomics, no workspace: the fast path of persistent frames)";
  } else {
    w = "large or run-time size: warp shuffles in every block, partials in the workspace, "
        "the last block to take the ticket combines them in a fixed order (one pass, like CUB)";
  }
  if (why) *why = w;
  return s;
}

static ggi_strategy strategy_of(const ggi_kernel *k)
{
  if (k->spec.strategy != GGI_STRAT_AUTO) return k->spec.strategy;
  if (k->strategy != GGI_STRAT_AUTO) return k->strategy;
  return ggi_reduce_auto(k, NULL);
}

/* The single value, when it is a plain read `x(i)` of a rank-1 contiguous
 * view: then the loads can be 16-byte vectors.  Returns the view or NULL. */
static const ggi_param *plain_read(const ggi_kernel *k)
{
  if (k->rank != 1 || nvalues(k) != 1 || !k->values[0] || !k->index[0]) return NULL;
  const char *s = k->values[0];
  while (*s == ' ' || *s == '\t' || *s == '\n') s++;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *p = &k->params[i];
    size_t n = strlen(p->name);
    if (p->kind != GG_PARAM_VIEW || p->rank != 1 || p->layout == GG_LAYOUT_STRIDE) continue;
    if (strncmp(s, p->name, n) != 0) continue;
    const char *t = s + n;
    while (*t == ' ') t++;
    if (*t++ != '(') continue;
    while (*t == ' ') t++;
    size_t m = strlen(k->index[0]);
    if (strncmp(t, k->index[0], m) != 0) continue;
    t += m;
    while (*t == ' ') t++;
    if (*t++ != ')') continue;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == ';') t++;
    if (*t == '\0') return p;
  }
  return NULL;
}

void ggi_reduce_shape(const ggi_kernel *k, int *block, int *items, int *vector, const char **why)
{
  const ggi_param *src = plain_read(k);
  int vec = src ? 16 / (int)ggi_dtype_size(src->dtype) : 1;
  int64_t n = static_work(k);
  int b = 256;
  const char *w = "256 threads: enough warps per SM to keep loads in flight, few barriers";
  if (k->vector == 1) vec = 1;
  if (k->pattern == GG_PATTERN_REDUCE && n >= 0 && n <= SMALL_REDUCE
      && strategy_of(k) != GGI_STRAT_GRID_SYNC) {
    /* one block: ~16 elements per thread, so a 1K sum uses 64 threads
     * (cheap barriers) and a 32K sum all 1024 */
    int64_t t = (n + 15) / 16;
    t = (t + 31) / 32 * 32;
    b = t < 32 ? 32 : t > GG_BLOCK_THREADS_MAX ? GG_BLOCK_THREADS_MAX : (int)t;
    w = "one block with ~16 elements per thread: small blocks have cheap barriers";
  } else if (k->pattern == GG_PATTERN_REDUCE && strategy_of(k) == GGI_STRAT_WARP_SHUFFLE
             && (n < 0 || n > SMALL_WORK)) {
    /* Measured on the H100 (bench/reduce_bench --only shapes): 1024
     * threads keep full occupancy with 2 blocks per SM, so the capped grid
     * has 264 partials and tickets instead of 1056 - at or above CUB at 16M
     * and 256M for f32, i32 and f64, where 256 threads gave 0.99x. */
    b = BIG_BLOCK;
    w = "1024 threads: full occupancy with 2 blocks per SM, so a quarter of the partials and "
        "tickets of 256-thread blocks (measured: >= CUB at 16M and 256M); a run-time size up "
        "to 1M elements launches 256-thread blocks instead";
  }
  if (k->pattern == GG_PATTERN_TILE_REDUCE) vec = 1;
  if (k->block > 0) {
    b = k->block;
    w = "block as written in the workload";
  }
  int it = vec * LOADS_IN_FLIGHT;
  if (k->pattern == GG_PATTERN_SCAN) {
    /* scan tiles of 256 x 16 items (4096 per tile, like CUB's ~15 x
     * 256): fewer tiles mean fewer look-backs.  Measured on the H100
     * (reduce_bench's scan shape rows, each in one process): 4-byte, 256 x
     * 16 >= CUB (256 x 12 0.81x, 256 x 20 0.92x, 128 x 16 0.93x at 256M
     * i32); 8-byte, 256 x 16 0.99x (i64) and 1.03x (f64) at 16M-256M where
     * 256 x 8 (the same tile in bytes as 4-byte x 16) took 0.94x and
     * 0.98x, 256 x 12 0.93x and 0.97x */
    it = 16;
    vec = 1;
  } else if (k->pattern == GG_PATTERN_TILE_REDUCE) {
    int s = 1;
    while (s < k->tile && s < 32) s <<= 1;
    it = k->tile / s > 0 ? k->tile / s : 1;
  }
  if (k->items > 0 && k->pattern != GG_PATTERN_TILE_REDUCE) it = k->items;
  if (block) *block = b;
  if (items) *items = it;
  if (vector) *vector = vec;
  if (why) *why = w;
}

/* ---- the plan ---- */

static int set(ggi_plan *p, const char *key, const char *value, ggi_diag *d)
{
  if (p->nvars >= GGI_PLAN_MAX_VARS) return ggi_fail(d, "internal: too many plan keys (%s)", key);
  p->keys[p->nvars] = key;
  p->values[p->nvars] = value;
  p->nvars++;
  return 0;
}

static const char *fmt_int(ggi_arena *a, long long v)
{
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  return ggi_strdup(a, buf);
}

/* identity() and combine() of a reduce whose values have their own
 * operators: one statement per value, each with its operator's identity
 * and the prelude's functor (the same comparisons as GG_COMBINE). */
static const char *each_identity(const ggi_kernel *k, ggi_arena *a)
{
  char buf[GGI_MAX_VALUES * 96];
  size_t at = 0;
  for (int v = 0; v < nvalues(k); v++)
    at += (size_t)snprintf(buf + at, sizeof buf - at, "  a.v[%d] = (acc_t)(%s);\n", v,
                           ggi_reduce_identity(k, k->ops[v]));
  if (at > 0) buf[at - 1] = '\0'; /* the template ends the line */
  return ggi_strdup(a, buf);
}

static const char *each_combine(const ggi_kernel *k, ggi_arena *a)
{
  static const char *const functor[] = {[GGI_OP_SUM] = "gg_op_add", [GGI_OP_MIN] = "gg_op_min",
                                        [GGI_OP_MAX] = "gg_op_max", [GGI_OP_PROD] = "gg_op_mul"};
  char buf[GGI_MAX_VALUES * 96];
  size_t at = 0;
  for (int v = 0; v < nvalues(k); v++) {
    ggi_op op = k->ops[v] <= GGI_OP_PROD ? k->ops[v] : GGI_OP_SUM; /* custom is never mixed */
    at += (size_t)snprintf(buf + at, sizeof buf - at, "  a.v[%d] = %s()(a.v[%d], b.v[%d]);\n", v,
                           functor[op], v, v);
  }
  if (at > 0) buf[at - 1] = '\0';
  return ggi_strdup(a, buf);
}

/* The WORK of a run-time 2-D or 3-D range (emit.c's product otherwise). */
static const char *md_work(const ggi_kernel *k, ggi_arena *a)
{
  char e[GGI_MAX_RANK][80];
  for (int r = 0; r < GGI_MAX_RANK; r++) {
    if (r >= k->rank) snprintf(e[r], sizeof e[r], "1LL");
    else if (k->range[r].name) snprintf(e[r], sizeof e[r], "(long long)(%s)", k->range[r].name);
    else snprintf(e[r], sizeof e[r], "%lldLL", (long long)k->range[r].value);
  }
  char buf[300];
  snprintf(buf, sizeof buf, "gg_range_work(%s, %s, %s)", e[0], e[1], e[2]);
  return ggi_strdup(a, buf);
}

/* A range of rank 2 or 3 with a run-time extent: its size comes from
 * gg_range_work() (reduce_range.cuh), which refuses a product past 2^62.
 * Static ranges were checked when the workload was loaded. */
static int runtime_md_range(const ggi_kernel *k)
{
  return k->rank > 1 && static_work(k) < 0;
}

/* The template pieces of strategy s, in order (see plan.h): every
 * strategy starts with the head (types), gg_range_work() for a run-time
 * 2-D or 3-D range, identity() and combine() (one operator for every
 * value, or one per value), then the element read and phase 1.  Phase 2:
 * the warp-shuffle block reduce serves every strategy but the tree, the
 * tiles and global_atomic (which has none); deterministic is warp_shuffle
 * with a fixed grid (set below), so it takes the same pieces.  Phase 3:
 * the last-block ticket (reduce_finish_ticket.cuh, which a team reduce
 * shares, then the body), the two atomic endings, or the grid barrier. */
static void reduce_parts(const ggi_kernel *k, ggi_strategy s, ggi_plan *p)
{
  const char *block = "common/reduce_block_warp_shuffle.cuh";
  const char *tail = "common/reduce_tail_ticket.cuh";
  int atomic = 0, ticket = 1;
  switch (s) {
  case GGI_STRAT_SHARED_TREE: block = "common/reduce_block_shared_tree.cuh"; break;
  case GGI_STRAT_CG_TILE: block = "common/reduce_block_cg_tile.cuh"; break;
  case GGI_STRAT_GLOBAL_ATOMIC:
    block = NULL;
    atomic = 1, ticket = 0;
    tail = "common/reduce_tail_global_atomic.cuh";
    break;
  case GGI_STRAT_SHARED_ATOMIC:
    atomic = 1, ticket = 0;
    tail = "common/reduce_tail_shared_atomic.cuh";
    break;
  case GGI_STRAT_GRID_SYNC: tail = "common/reduce_tail_grid_sync.cuh", ticket = 0; break;
  default: break; /* auto, warp_shuffle, deterministic */
  }
  p->nparts = 0;
  p->template_parts[p->nparts++] = "common/reduce_head.cuh";
  if (runtime_md_range(k)) p->template_parts[p->nparts++] = "common/reduce_range.cuh";
  p->template_parts[p->nparts++] = ggi_ops_mixed(k) ? "common/reduce_ops_each.cuh" : "common/reduce_ops.cuh";
  p->template_parts[p->nparts++] = "common/reduce_fold.cuh";
  if (block) p->template_parts[p->nparts++] = block;
  p->template_parts[p->nparts++] = "common/reduce_workspace.cuh";
  if (atomic) p->template_parts[p->nparts++] = "common/reduce_atomic.cuh";
  if (ticket) p->template_parts[p->nparts++] = "common/reduce_finish_ticket.cuh";
  p->template_parts[p->nparts++] = tail;
  p->template_path = p->template_parts[0];
}

int ggi_plan_reduce(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                    ggi_diag *d)
{
  ggi_strategy s = strategy_of(k);
  const ggi_param *src = plain_read(k);
  int block, items, vec, nv = nvalues(k);
  int acc_size = (int)ggi_dtype_size(acc_type(k));
  int64_t n = static_work(k);
  ggi_reduce_shape(k, &block, &items, &vec, NULL);
  if (k->spec.block > 0) block = k->spec.block;

  reduce_parts(k, s, p);
  p->ws_fixed = GG_REDUCE_WS_PARTIALS_OFF; /* gg_abi.h */
  p->ws_per_block = (uint32_t)((nv * acc_size + 7) / 8 * 8);
  /* warp partials (at most 32 warps) or, for the tree, one slot per thread */
  p->shared_bytes = (uint32_t)(64 * nv * 8); /* cg_tile: 64 tiles of 16 */
  if (s == GGI_STRAT_SHARED_TREE) {
    p->shared_bytes = (uint32_t)(block * nv * 8);
    p->max_threads = block; /* one slot per thread */
  }
  p->grid_rule = GG_GRID_COVER;
  p->cap_resident = 1;
  if (n >= 0 && n <= SMALL_REDUCE && s == GGI_STRAT_WARP_SHUFFLE) {
    p->grid_rule = GG_GRID_FIXED;
    p->grid_fixed = 1;
  } else if (s == GGI_STRAT_GRID_SYNC) {
    p->grid_rule = GG_GRID_RESIDENT;
    p->features |= GG_FEAT_COOPERATIVE;
  } else if (s == GGI_STRAT_DETERMINISTIC) {
    /* the same grid on every device, so the same order of operations */
    int64_t per = (int64_t)block * items;
    p->grid_rule = GG_GRID_FIXED;
    p->grid_fixed = DET_GRID;
    if (n >= 0 && (n + per - 1) / per < DET_GRID) p->grid_fixed = n > 0 ? (n + per - 1) / per : 1;
    p->cap_resident = 0;
  }
  if (p->grid_rule == GG_GRID_COVER && block == BIG_BLOCK && k->block == 0) {
    /* 1024-thread blocks win only when there is work for the whole GPU;
     * up to 1M elements more, smaller blocks finish sooner (measured on
     * the H100: 256 threads ~10 % faster at 32K), so the runtime picks by
     * the size it is given (gg_kernel_desc.small_block). */
    p->small_block = 256;
    p->small_work = SMALL_WORK;
  }
  if (uses_atomics(s)) {
    if (atomic_needs_cas(k, target)) p->features |= GG_FEAT_CAS_EMULATION;
    if (k->op == GGI_OP_SUM && acc_type(k) == GG_F32) p->features |= GG_FEAT_FLOAT_ATOMIC;
    if (k->op == GGI_OP_SUM && acc_type(k) == GG_F64) p->features |= GG_FEAT_DOUBLE_ATOMIC;
  }
  if (src && ggi_dtype_is_half(src->dtype)) p->features |= GG_FEAT_HALF;
  if (ggi_dtype_is_half(k->acc_type)) p->features |= GG_FEAT_HALF;

  if (set(p, "RVEC", fmt_int(a, vec), d) || set(p, "UNROLL", fmt_int(a, LOADS_IN_FLIGHT), d)
      || set(p, "VEC_PTR", src && vec > 1 ? src->name : "0", d)
      || set(p, "VEC_T", src ? ggi_dtype_ctype(src->dtype) : ggi_dtype_ctype(acc_type(k)), d)
      || set(p, "RED_ATOMIC", atomic_stmt(k, a), d)
      || set(p, "WS_INIT", identity_is_zero(k) ? "0" : "1", d)
      || set(p, "RBLOCK", fmt_int(a, block), d))
    return -1;
  if (ggi_ops_mixed(k) && (set(p, "IDENTITY_EACH", each_identity(k, a), d)
                           || set(p, "COMBINE_EACH", each_combine(k, a), d)))
    return -1;
  if (runtime_md_range(k) && (set(p, "WORK", md_work(k, a), d)
                              || set(p, "TRAP", target == GGI_TARGET_HIP ? "__builtin_trap()" : "__trap()", d)))
    return -1;
  return 0;
}

/* How a scan's tile code is compiled, measured on the H100 (reduce_bench
 * --only scan, every variant in one process, 2026-11-24; p50 against
 * CUB's InclusiveSum at 16M / 64M / 256M):
 *   4-byte integers: items kept in registers, the run-time stride of
 *     gg_body: 1.048 / 1.036 / 1.036x; the constant stride and the
 *     items read again from shared memory: 0.963 / 0.942 / 0.934x; the
 *     constant stride with registers 0.960 / 0.954 / 0.950x;
 *   f32: constant stride, read again 0.959 / 0.950 / 0.945x; run-time
 *     stride, registers 0.967 / 0.932 / 0.922x (ptxas gives f32 48
 *     registers there, 5 blocks per SM instead of 8);
 *   8-byte: constant stride, read again 0.95-0.98x; registers 0.86-0.89x.
 * *keep: the items stay in registers; returns the classic launch's body
 * (a function of the kernel's namespace). */
static const char *scan_body(const ggi_kernel *k, int *keep)
{
  const gg_dtype t = acc_type(k);
  *keep = ggi_dtype_size(t) == 4 && !ggi_dtype_is_float(t);
  return *keep ? "gg_body" : "gg_body_block";
}

/* 64-bit words per look-back slot: at least 2, so that a 32-byte L2
 * sector holds the states of at most 2 tiles.  Measured on the H100 (the
 * same process, 16M / 64M / 256M against CUB): 4-byte sums on 8-byte
 * slots 0.92-0.94x (i32) and 0.95x (f32), on 16-byte slots 1.03-1.04x and
 * 1.06x; 8-byte sums (2 words) unchanged. */
static int scan_slot_words(int words) { return words < 2 ? 2 : words; }

/* Tile elements per shared-memory pad element (scan.cuh's pad()): 128
 * bytes of them, so that a (half-)warp reading one thread's run of
 * consecutive elements each spreads over every bank: 32 for 4-byte sums
 * (and narrower, which accumulate in 4 bytes or more), 16 for 8-byte.
 * Measured on the H100 (one process, 16M / 64M / 256M, against CUB): i64
 * with a pad per 32 (2-way bank conflicts) 0.986 / 0.982 / 0.983x, per 16
 * 1.011 / 0.997 / 0.995x; with the 16-byte look-back words of scan.cuh
 * on top 1.023 / 1.019 / 1.015x. */
static int scan_pad_every(int acc_size) { return acc_size <= 4 ? 32 : 128 / acc_size; }

int ggi_plan_scan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  (void)target;
  int block, items;
  int acc_size = (int)ggi_dtype_size(acc_type(k));
  /* 64-bit words per tile state: 32 bits of the value in each, beside
   * its tag and status (scan.cuh) */
  int words = acc_size <= 4 ? 1 : (acc_size + 3) / 4;
  ggi_reduce_shape(k, &block, &items, NULL, NULL);
  if (k->spec.block > 0) block = k->spec.block;
  if (k->spec.items > 0) items = k->spec.items;
  p->template_path = "common/scan.cuh";
  p->needs_seq = 1;
  /* the tile in shared memory, one pad element per pad_every so that a
   * thread's consecutive items sit in different banks, then 66 warp sums
   * and the broadcast prefix (layout in scan.cuh) */
  int64_t tile = (int64_t)block * items;
  const int pad_every = scan_pad_every(acc_size);
  p->shared_bytes = (uint32_t)((tile + tile / pad_every + 1 + 66 + 1) * acc_size);
  p->max_threads = block; /* the tile is nthreads x items */
  /* Look-back words: a ring of SCAN_RING tiles, WORDS words each, in
   * ws_fixed so the grid may be one block per tile (ws_per_block would
   * bound it at the resident count).  Words are tagged with gg_seq and
   * the ring round, so a reused slot is never misread; the one hazard
   * left is a look-back stalled while 2^18 later tiles (1G 4-byte
   * elements) complete, which would then wait forever. */
  p->ws_fixed = (uint32_t)(SCAN_RING * 8 * scan_slot_words(words));
  p->ws_per_block = 0;
  p->grid_rule = GG_GRID_COVER;
  p->cap_resident = 0; /* one tile per block, dispatched in order, like CUB */
  int keep;
  const char *body = scan_body(k, &keep);
  if (set(p, "SCAN_ITEMS", fmt_int(a, items), d) || set(p, "RBLOCK", fmt_int(a, block), d)
      || set(p, "SCAN_RING", fmt_int(a, SCAN_RING), d) || set(p, "SCAN_WORDS", fmt_int(a, words), d)
      || set(p, "SCAN_SLOT_WORDS", fmt_int(a, scan_slot_words(words)), d)
      || set(p, "SCAN_PAD_EVERY", fmt_int(a, pad_every), d)
      || set(p, "SCAN_KEEP_ITEMS", keep ? "1" : "0", d) || set(p, "LAUNCH_BODY", body, d))
    return -1;
  return 0;
}

int ggi_plan_tile_reduce(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                         ggi_diag *d)
{
  (void)target;
  int block, items;
  int team = 1;
  if (k->tile < 2 || k->tile > 1024) return ggi_fail(d, "tile = %d, allowed 2..1024", k->tile);
  while (team < k->tile && team < 32) team <<= 1;
  ggi_reduce_shape(k, &block, &items, NULL, NULL);
  if (k->spec.block > 0) block = k->spec.block;
  p->template_path = "common/tile_reduce.cuh";
  p->shared_bytes = 0;
  p->grid_rule = GG_GRID_COVER;
  p->cap_resident = 1;
  if (set(p, "TEAM", fmt_int(a, team), d) || set(p, "RBLOCK", fmt_int(a, block), d))
    return -1;
  return 0;
}

/* ---- team reduce ---- */

/* The block pieces a team reduce may combine its threads with; the
 * atomic strategies and grid_sync are the loader's refusals. */
ggi_strategy ggi_team_reduce_strategy(const ggi_kernel *k, const char **why)
{
  if (k->strategy != GGI_STRAT_AUTO) {
    if (why) *why = "strategy as written in the workload";
    return k->strategy;
  }
  if (why)
    *why = "contribute(): each thread folds what it contributes, its block combines them with warp "
           "shuffles, the last block to take the ticket combines the blocks' partials in block "
           "order (no atomics on the data, no output to zero; bit-identical run to run on one "
           "device, or on every device with strategy = \"deterministic\")";
  return GGI_STRAT_WARP_SHUFFLE;
}

int ggi_team_reduce_plan(const ggi_kernel *k, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  ggi_strategy s = k->spec.strategy;
  int nv = nvalues(k), team = k->spec.block;
  int acc_size = (int)ggi_dtype_size(acc_type(k));
  const char *block = s == GGI_STRAT_SHARED_TREE ? "common/reduce_block_shared_tree.cuh"
                      : s == GGI_STRAT_CG_TILE   ? "common/reduce_block_cg_tile.cuh"
                                                 : "common/reduce_block_warp_shuffle.cuh";
  if (s != GGI_STRAT_WARP_SHUFFLE && s != GGI_STRAT_SHARED_TREE && s != GGI_STRAT_CG_TILE
      && s != GGI_STRAT_DETERMINISTIC)
    return ggi_fail(d, "internal: strategy %s for a team reduce", ggi_strategy_name(s));
  p->nparts = 0;
  p->template_parts[p->nparts++] = "common/reduce_head.cuh";
  p->template_parts[p->nparts++] = ggi_ops_mixed(k) ? "common/reduce_ops_each.cuh" : "common/reduce_ops.cuh";
  p->template_parts[p->nparts++] = "common/team_reduce.cuh";
  p->template_parts[p->nparts++] = block;
  p->template_parts[p->nparts++] = "common/reduce_workspace.cuh";
  p->template_parts[p->nparts++] = "common/reduce_finish_ticket.cuh";
  p->template_parts[p->nparts++] = "common/team_reduce_tail.cuh";
  p->template_path = p->template_parts[0];
  /* after the team's own shared memory: the block piece's partials (one
   * per warp, per tile of 16, or per thread for the tree) */
  uint32_t red_at = p->shared_bytes;
  p->shared_bytes += (uint32_t)(s == GGI_STRAT_SHARED_TREE ? team * nv * 8 : 64 * nv * 8);
  p->ws_fixed = GG_REDUCE_WS_PARTIALS_OFF; /* gg_abi.h */
  p->ws_per_block = (uint32_t)((nv * acc_size + 7) / 8 * 8);
  if (s == GGI_STRAT_DETERMINISTIC) {
    /* the same grid on every device, so the same order of operations */
    p->grid_rule = GG_GRID_FIXED;
    p->grid_fixed = DET_GRID;
    /* no more blocks than the league's: its items, times the blocks of
       each (a gemm's tiles; set by the pattern's plan before this) */
    const int64_t per = p->league_blocks > 0 ? p->league_blocks : 1;
    if (!k->league.name && k->league.value * per < DET_GRID) p->grid_fixed = k->league.value * per;
    p->cap_resident = 0;
  } else {
    /* one block per team, but never more blocks than are co-resident: the
     * workspace holds one partial per block */
    p->grid_rule = GG_GRID_LEAGUE;
    p->cap_resident = 1;
  }
  if (set(p, "RVEC", "1", d) || set(p, "UNROLL", fmt_int(a, LOADS_IN_FLIGHT), d)
      || set(p, "VEC_T", ggi_dtype_ctype(acc_type(k)), d)
      || set(p, "RED_SMEM", fmt_int(a, red_at), d) || set(p, "RBLOCK", fmt_int(a, team), d))
    return -1;
  if (ggi_ops_mixed(k) && (set(p, "IDENTITY_EACH", each_identity(k, a), d)
                           || set(p, "COMBINE_EACH", each_combine(k, a), d)))
    return -1;
  return 0;
}

int ggi_contribute_pieces(const ggi_kernel *k, ggi_arena *a, ggi_plan *p, ggi_diag *d,
                          const char *body, const char *tail, const char *reduce_tail)
{
  if (!ggi_is_team_reduce(k)) {
    p->nparts = 0;
    p->template_parts[p->nparts++] = body;
    p->template_parts[p->nparts++] = tail;
    p->template_path = p->template_parts[0];
    return 0;
  }
  if (ggi_team_reduce_plan(k, a, p, d) != 0) return -1;
  /* its last piece is a team's loop (team_reduce_tail.cuh): the
     pattern's instead */
  if (p->nparts + 1 > GGI_PLAN_MAX_PARTS) return ggi_fail(d, "too many template pieces (a gpugen bug)");
  p->template_parts[p->nparts - 1] = body;
  p->template_parts[p->nparts++] = reduce_tail;
  return 0;
}
