/*
 * specialize.c - make the choices `auto` leaves open (block size, items
 * per thread, vector width, reduction strategy, CAS emulation) and record
 * one sentence per choice, which `gpugen explain` prints.
 *
 * Reduce-like patterns ask reduce_plan.c (ggi_reduce_auto, _shape,
 * _needs_cas): the reduction templates and their shapes belong together.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "patterns.h"
#include "plan.h"
#include "specialize.h"
#include "frame.h"
#include "fft_sizes.h"
#include "variants.h"

#define FOR_BLOCK 256 /* 8 warps / 4 wavefronts: a multiple of both warp sizes */
#define WARP_LCM 64   /* blocks stay multiples of 64 so no wavefront is partial */
#define TEAM_DEFAULT 64

static void why(ggi_kernel *k, const char *text)
{
  if (text && k->spec.n_why < 8) k->spec.why[k->spec.n_why++] = text;
}

/* A sentence built at run time, kept in the module's arena. */
static const char *whyf(ggi_module *m, const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return ggi_strdup(m->arena, buf);
}

/* Product of the range when every extent is a number, else -1. */
static long long static_work(const ggi_kernel *k)
{
  long long w = 1;
  for (int i = 0; i < k->rank; i++) {
    if (k->range[i].name) return -1;
    w *= k->range[i].value;
  }
  return k->rank > 0 ? w : -1;
}

int ggi_spec_for(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)d;
  long long work = static_work(k);
  ggi_spec *s = &k->spec;
  if (k->block > 0) {
    s->block = k->block;
    why(k, whyf(m, "block %d: as written in the workload", k->block));
  } else if (work > 0 && work < FOR_BLOCK) {
    /* one block does it all; don't launch idle warps */
    s->block = (int)((work + WARP_LCM - 1) / WARP_LCM * WARP_LCM);
    why(k, whyf(m, "block %d: the range has only %lld indices, so one block rounded up to a "
                   "multiple of 64 (whole warps and wavefronts) covers it", s->block, work));
  } else {
    s->block = FOR_BLOCK;
    why(k, "block 256: 8 warps (4 wavefronts) per block, enough to hide memory latency for a "
           "memory-bound body, a multiple of both warp sizes, and light enough that several "
           "blocks share an SM");
  }
  if (k->rank >= 2) {
    const int first = k->spec.first_fastest;
    const char *fast = k->index[first ? 0 : k->rank - 1];
    why(k, whyf(m, "index %s%s%s fastest: consecutive threads take consecutive %s, so a view "
                   "whose contiguous index it is reads coalesced; the range's views vote by "
                   "layout (left: the first index; right, the default: the last)",
                fast ? "\"" : "", fast ? fast : first ? "the first" : "the last", fast ? "\"" : "",
                fast ? fast : "indices"));
  }
  s->vector = k->vector > 0 ? k->vector : 1;
  if (k->vector > 0)
    why(k, whyf(m, "vector %d: as written; each thread takes %d neighbouring indices per step, "
                   "unrolled, so the compiler can merge their loads", s->vector, s->vector));
  else
    why(k, "vector 1: bodies index views element by element and gpugen does not rewrite them "
           "into vector loads; consecutive threads already read consecutive elements "
           "(coalesced), which is what bandwidth needs");
  if (k->items > 0) {
    s->items = k->items;
    why(k, whyf(m, "items %d per thread: as written", s->items));
  } else {
    s->items = s->vector;
    why(k, "items = vector: one step per thread; frame-loop ranges are small and the grid "
           "(cover rule) grows with the range, while the grid-stride loop still covers any "
           "size a fixed grid (persistent kernels) is given");
  }
  if (s->items < s->vector) s->items = s->vector;
  return 0;
}

/* A kernel whose threads contribute() into a result (team, fft or gemm
 * with into): how its blocks combine them, and why. */
static void contribute_strategy(ggi_module *m, ggi_kernel *k)
{
  if (!ggi_is_team_reduce(k)) return;
  const char *w = NULL;
  k->spec.strategy = ggi_team_reduce_strategy(k, &w);
  why(k, whyf(m, "strategy %s: %s", ggi_strategy_name(k->spec.strategy), w));
}

int ggi_spec_team(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  ggi_spec *s = &k->spec;
  if (k->team_size > 0) {
    s->block = k->team_size;
    why(k, whyf(m, "block %d = team_size: one team per block, so team_barrier() is a block "
                   "barrier", s->block));
  } else {
    s->block = TEAM_DEFAULT;
    why(k, "block 64: team_size not given; 64 threads are one CDNA wavefront or two warps");
  }
  if (k->block > 0 && k->block != s->block)
    return ggi_fail_at(d, m->file, k->line, "kernel \"%s\": block = %d differs from team_size = %d; a team "
                               "pattern's block is its team size", k->name, k->block, s->block);
  s->items = 1;
  s->vector = 1;
  why(k, "items 1, vector 1: the body decides what each team thread does");
  contribute_strategy(m, k);
  return 0;
}

/* explain's line on a knob set to "auto" (gen/variants.c): `head`, the
 * names of kernel k's variants, then `tail` (`none` when it has none). */
static const char *variants_why(const ggi_module *m, const ggi_kernel *k, const char *head,
                                const char *none, const char *tail)
{
  char buf[800];
  int len = snprintf(buf, sizeof buf, "%s", head), n = 0;
  const int me = (int)(k - m->kernels);
  for (int i = ggi_next_variant(m->kernels, m->nkernels, me, 0);
       i >= 0 && len < (int)sizeof buf - 300; i = ggi_next_variant(m->kernels, m->nkernels, me, i + 1))
    len += snprintf(buf + len, sizeof buf - (size_t)len, "%s %s", n++ ? "," : "",
                    m->kernels[i].name);
  snprintf(buf + len, sizeof buf - (size_t)len, "%s%s", n ? "" : none, tail);
  return ggi_strdup(m->arena, buf);
}

/* explain's line on tile = "auto": the kernel's variants, or which kernel
 * a variant is one of. */
static const char *variant_why(const ggi_module *m, const ggi_kernel *k)
{
  if (k->variant_of)
    return ggi_strdup(m->arena, "a tile variant (tile = \"auto\" on the kernel it is named "
                      "after): a kernel, and a command wherever that kernel is one, for "
                      "gg_session_tune to measure against it (docs/tuning.md)");
  return variants_why(m, k, "tile = \"auto\": this kernel has the plan's tile; its variants",
                      " (none: the plan's rule gives this tile, or one needing another block, at every other "
                      "count of tiles it aims at)", " are kernels too, and commands wherever "
                      "this one is, for gg_session_tune to measure on the device (docs/tuning.md)");
}

/* gemm: the block tile and the threads of its cuBLASDx block GEMM (its
 * BlockDim), both gemm_plan.c's (ggi_gemm_shape). */
int ggi_spec_gemm(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  ggi_spec *s = &k->spec;
  const char *w[3] = {NULL, NULL, NULL};
  ggi_diag why_not;
  if (ggi_gemm_shape(k, s->gemm_tile, &s->block, w, m->arena, &why_not) != 0)
    return ggi_fail_at(d, m->file, k->gemm_tile_line ? k->gemm_tile_line : k->line, "kernel \"%s\": %s",
                k->name, why_not.msg);
  if (ggi_gemm_split_fits(k, s->gemm_tile, &why_not) != 0)
    return ggi_fail_at(d, m->file, k->gemm_split_line ? k->gemm_split_line : k->line,
                       "kernel \"%s\": %s", k->name, why_not.msg);
  why(k, w[2]);
  why(k, w[0]);
  if (k->gemm_tile_auto || k->variant_of)
    why(k, variant_why(m, k));
  why(k, w[1]);
  s->items = s->vector = 1;
  why(k, "one tile of one batch item per (virtual) block at a time: the block loads A's and B's "
         "panels of a K step into shared memory, multiplies them into its registers, and after "
         "the last step writes alpha AB + beta C into its tile of C");
  if (k->body)
    why(k, "post: the statements run on each element of C in the thread holding it, between "
           "alpha AB + beta C and the store (no pass of its own over memory)");
  contribute_strategy(m, k);
  return 0;
}

/* The data path of an fft (ggi_fft_path), for explain. */
static const char *const fft_path_words[] = {
  [GGI_FFT_REGISTERS] = "each thread loading its elements into registers straight from global "
                        "memory (c2c, contiguous views)",
  [GGI_FFT_SHARED] = "loaded into shared memory as contiguous runs, transformed there and "
                     "stored (r2c, c2r, contiguous views)",
  [GGI_FFT_VIEWS] = "loaded into shared memory element by element at the views' own addresses "
                    "(a view of layout left or stride), transformed there and stored the same "
                    "way; contiguous views (layout right) are the fast path",
};

/* fft: the threads of one cuFFTDx block FFT, N / elements per thread (the
 * load checked a written block against cuFFTDx's values for the size). */
int ggi_spec_fft(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)d;
  ggi_spec *s = &k->spec;
  int threads[GGI_FFT_MAX_EPTS];
  int n = ggi_fft_kernel_threads(k, threads);
  if (k->variant_threads) {
    s->block = k->block;
    why(k, whyf(m, "block %d: a thread-count variant (block = \"auto\" on the kernel it is "
                   "named after), run by persistent kernels of %d threads made for it, for "
                   "gg_session_tune to measure (docs/tuning.md)", s->block, s->block));
  } else if (k->block > 0) {
    s->block = k->block;
    why(k, whyf(m, "block %d: as written (the threads of one cuFFTDx FFT)", s->block));
  } else {
    s->block = ggi_fft_auto_threads(threads, n);
    why(k, whyf(m, "block %d: %s", s->block,
                s->block % 32 ? "the most threads cuFFTDx has for this size (none is whole warps)"
                : s->block <= 256
                    ? "the most threads of whole warps up to 256 cuFFTDx has for this size (one "
                      "FFT per block at a time: more threads, more of it at work; a persistent "
                      "kernel's block is whole warps)"
                    : "the fewest whole warps cuFFTDx has for this size (none up to 256)"));
    if (k->fft_block_auto)
      why(k, variants_why(m, k, "block = \"auto\": this kernel has the plan's count; its variants",
                          " (none: cuFFTDx has no other count of whole warps)", " are kernels "
                          "too; a persistent kernel that runs this one (or a frame of it) gets a "
                          "variant on each count, <persistent>_threads<t>, which runs them, for "
                          "gg_session_tune to measure (docs/tuning.md)"));
  }
  s->items = k->fft_size / s->block;
  s->vector = 1;
  why(k, whyf(m, "%d elements per thread; one FFT per (virtual) block at a time, %s (cuFFTDx "
                 "puts several FFTs in a block along threadIdx.y; gpugen's blocks are 1-D)",
              s->items,
              fft_path_words[ggi_fft_path(k)]));
  if (k->fft_between)
    why(k, "between: a round trip - the transform, the statements on each element of its result "
           "in the thread holding it, the opposite transform; one pass over memory");
  if (k->body)
    why(k, "post: the statements run on each output element in the thread holding it, between "
           "the transform and the store (no pass of its own over memory)");
  contribute_strategy(m, k);
  return 0;
}

int ggi_spec_reduce(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  ggi_spec *s = &k->spec;
  const char *w = NULL;
  if (k->strategy != GGI_STRAT_AUTO) {
    s->strategy = k->strategy;
    why(k, whyf(m, "strategy %s: as written in the workload", ggi_strategy_name(k->strategy)));
  } else {
    s->strategy = ggi_reduce_auto(k, &w);
    why(k, w);
  }
  w = NULL;
  ggi_reduce_shape(k, &s->block, &s->items, &s->vector, &w);
  /* The load width is the plan's: a 16-byte vector of a plain read, or
   * 1.  A written vector that is neither would be silently changed. */
  if (k->vector > 0 && k->vector != s->vector) {
    /* only reduce has field vector (patterns.c): the others' plans load
       element by element */
    if (s->vector == 1)
      return ggi_fail_at(d, m->file, k->vector_line ? k->vector_line : k->line,
                  "kernel \"%s\": vector = %d, allowed: 1 (this reduce's value loads element by "
                  "element: it is not a plain read x(i) of a contiguous rank-1 view)",
                  k->name, k->vector);
    return ggi_fail_at(d, m->file, k->vector_line ? k->vector_line : k->line,
                "kernel \"%s\": vector = %d, allowed: 1 or %d (one 16-byte load of the value's "
                "elements)", k->name, k->vector, s->vector);
  }
  why(k, whyf(m, "block %d: %s", s->block, w ? w : "reduce_plan default"));
  why(k, whyf(m, "items %d, vector %d: %s", s->items, s->vector,
              s->vector > 1 ? "the value is a plain read of a contiguous view, so loads are "
                              "16-byte vectors, several in flight per thread"
                            : "element loads (the value is an expression, or vector = 1 was "
                              "asked for)"));
  /* Say why a compare-and-swap loop is used, also when the loader already
   * set the flag (allow_cas = true): once, from the first target needing it. */
  for (unsigned t = GGI_TARGET_CUDA; t <= GGI_TARGET_HIP; t <<= 1) {
    w = NULL;
    if ((k->targets & t) && ggi_reduce_needs_cas(k, t, &w)) {
      s->cas_emulation = 1;
      if (w) why(k, w);
      break;
    }
  }
  return 0;
}

/* What no target-independent check can see: bf16 has no type under
 * hiprtc 5.2 ("__bf16 is not supported on this target"). */
static int check_types(const ggi_module *m, const ggi_kernel *k, ggi_diag *d)
{
  if (!(k->targets & GGI_TARGET_HIP)) return 0;
  for (int i = 0; i < k->nparams; i++)
    if (k->params[i].dtype == GG_BF16)
      return ggi_fail_at(d, m->file, k->params[i].line,
                  "kernel \"%s\": '%s' is bf16, which the hip target does not support (hiprtc 5.2 "
                  "has no bf16 type); use f16 or f32, or targets = { \"cuda\" }",
                  k->name, k->params[i].name);
  if (k->acc_type == GG_BF16 && !ggi_pattern_is(k, GGI_PAT_BF16_ACC_HIP))
    return ggi_fail_at(d, m->file, k->line, "kernel \"%s\": a bf16 accumulator is not supported on the hip "
                               "target (hiprtc 5.2 has no bf16 type)", k->name);
  return 0;
}

/* A frame: after its stages (kernels come first in m->kernels). */
int ggi_spec_frame(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  for (int s = 0; s < k->frame->nstages; s++) { /* its exchange stages' own kernels */
    ggi_kernel *own = k->frame->stages[s].own;
    if (!own) continue;
    memset(&own->spec, 0, sizeof own->spec);
    if (ggi_pattern_of(own->pattern)->specialize(m, own, d) != 0) return -1;
  }
  for (int s = 0; s < k->frame->nstages; s++) {
    const ggi_kernel *sk = ggi_frame_stage(k->frame, s);
    if (sk->spec.block > k->spec.block) k->spec.block = sk->spec.block;
    k->targets &= sk->targets ? sk->targets : m->targets;
  }
  k->spec.items = k->spec.vector = 1;
  why(k, "a frame's block is its stages' largest; the persistent kernel that runs it "
         "chooses the real one");
  return 0; /* its variants, if any: report_frame.c says so */
}

/* Which range index is contiguous: the one the kernel's rank-matching
 * views store contiguously (layout right: the last; left: the first).
 * Returns 1 when the first index should vary fastest: the for template's
 * decode (dict.c) and the frame schedule's same-thread proof read it. */
static int first_index_fastest(const ggi_kernel *k)
{
  int left = 0, right = 0;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind != GG_PARAM_VIEW || pp->rank != k->rank) continue;
    if (pp->layout == GG_LAYOUT_LEFT) left++;
    if (pp->layout == GG_LAYOUT_RIGHT) right++;
  }
  return left > right;
}

static int specialize_all(ggi_module *m, ggi_diag *d)
{
  for (int i = 0; i < m->nkernels; i++) {
    ggi_kernel *k = &m->kernels[i];
    int cas = k->spec.cas_emulation; /* the loader may have set it */
    memset(&k->spec, 0, sizeof k->spec);
    k->spec.cas_emulation = cas;
    if (!k->targets) k->targets = m->targets;
    if (check_types(m, k, d) != 0) return -1;
    k->spec.first_fastest = first_index_fastest(k);
    if (!ggi_pattern_is(k, GGI_PAT_CHAIN)) k->own_index = ggi_body_own_index_table(k, m->arena);
    if (ggi_pattern_of(k->pattern)->specialize(m, k, d) != 0) return -1;
    if (k->launch == GG_LAUNCH_COOPERATIVE)
      why(k, ggi_pattern_is(k, GGI_PAT_GRID_LOOP)
                 ? "launch = cooperative: the grid is the blocks that are co-resident, launched "
                   "cooperatively (the body loops over the range; it has no grid barrier, "
                   "which threads with different trip counts would deadlock on)"
                 : "launch = cooperative: the grid is the blocks that are co-resident, launched "
                   "cooperatively, so the reduction can wait for the whole grid");
    for (int j = 0; j < k->spec.n_why; j++)
      if (!k->spec.why[j]) return ggi_fail_at(d, m->file, k->line, "out of memory");
  }
  for (int i = 0; i < m->npersistent; i++)
    if (!m->persistent[i].targets) m->persistent[i].targets = m->targets;
  return ggi_plan_module(m, d);
}

/* The variants first (a gemm's tiles, an fft's threads), then every
 * kernel specialized and planned; an fft's block = "auto" then gives
 * frames and persistent kernels variants that only the stages' plans can
 * tell apart (variants.h), and those are specialized and planned in turn
 * (the whole module again: one path for every kernel). */
int ggi_specialize(ggi_module *m, ggi_diag *d)
{
  if (ggi_expand_variants(m, d) != 0 || specialize_all(m, d) != 0) return -1;
  const int more = ggi_expand_thread_variants(m, d);
  if (more < 0) return -1;
  return more ? specialize_all(m, d) : 0;
}
