/*
 * gemm_plan.c - the plan of a gemm kernel (plan.h): the block tile, the
 * cuBLASDx block GEMM it instantiates (tile sizes, precisions, real or
 * complex, arrangements, load ops, BlockDim), the shared memory that holds one K step of A
 * and B, and the grid: one block per tile of C per batch item (league =
 * batch, league_blocks = tiles), striding over batch x tiles on any
 * virtual grid.
 *
 * Why tiles: one block per product leaves the GPU idle and serializes the
 * whole M x N x K on one SM; measured on the H100 at 128^3 that was 0.28x
 * cuBLAS (f32) and 0.26x (f16).  Each block now computes a tm x tn tile of
 * C, accumulating in registers over K in steps of tk (cuBLASDx's register
 * fragment API), so a 128^3 product runs on 16 blocks of 32 x 32.
 *
 * The template only spells these out; a static_assert in it checks that
 * cuBLASDx agrees with the shared memory computed here.
 */
#include <stdio.h>
#include <string.h>

#include "gemm_types.h"
#include "plan.h"

/* cuBLASDx slices shared memory into A, B, C, each start aligned to the
 * description's Alignment (16 bytes here, the most it takes). */
#define GEMM_SMEM_ALIGN 16u

static uint64_t aligned_bytes(uint64_t elems, unsigned elem)
{
  uint64_t b = elems * elem;
  return (b + GEMM_SMEM_ALIGN - 1) / GEMM_SMEM_ALIGN * GEMM_SMEM_ALIGN;
}

static const ggi_param *view(const ggi_kernel *k, int which)
{
  for (int i = 0; i < k->nparams; i++)
    if (strcmp(k->params[i].name, k->gemm_view[which]) == 0) return &k->params[i];
  return NULL;
}

/* Bytes of one element of A and B: a complex one is two of its precision */
static unsigned elem_bytes(const ggi_gemm_type *t)
{
  return ggi_dtype_size(t->in) * (t->complex ? 2u : 1u);
}

static int add_key(ggi_plan *p, ggi_arena *a, const char *key, const char *fmt, long long v)
{
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  if (p->nvars >= GGI_PLAN_MAX_VARS) return -1;
  p->keys[p->nvars] = key;
  p->values[p->nvars++] = ggi_strdup(a, buf);
  return p->values[p->nvars - 1] ? 0 : -1;
}

static int add_str(ggi_plan *p, const char *key, const char *value)
{
  if (p->nvars >= GGI_PLAN_MAX_VARS || !value) return -1;
  p->keys[p->nvars] = key;
  p->values[p->nvars++] = value;
  return 0;
}

/* Tiles per batch item the default tile aims at (at least); the largest
 * tile that still gives this many is chosen (smaller tiles make each
 * block reload more of A and B per output).  Measured on the H100
 * (mathdx_bench, 2026-11-24, 128^3 at batch 1, a frame on as many blocks
 * as tiles, p50 against the best of cuBLAS's launch and graph), with the
 * panels in 16-byte loads, two runs: f32 on 16 tiles of 32 x 32 1.16x,
 * on 32 of 32 x 16 1.34x, on 64 of 16 x 16 1.39-1.46x; f16 1.11-1.28x,
 * 1.37-1.39x, 1.25-1.30x.  One tile's K loop is latency-bound at this
 * size, so more blocks win; 2-byte panels load half the bytes, so f16
 * and bf16 stop at 32 tiles, 4- and 8-byte types at 64.  And f16 tiles
 * stay within 32 x 32 (128 threads): 256 x 256 x 128 on 32 tiles of
 * 64 x 32 (256 threads) took 7.46 us, on 64 of 32 x 32 6.79 us.
 * A complex element counts as its bytes: c32 (8) takes f64's rule; c64
 * (16) the same, not measured.  Exact real f32 (no tensor cores: each
 * block's FMAs are the latency) aims at 128: on the H200 (mathdx_bench,
 * 2026-11-28 18:02, batch 1) 256 x 256 x 128 on 64 tiles of 32 x 32 took
 * 13.22 us, on 128 of 16 x 32 6.63, on 256 of 16 x 16 8.21; the same
 * shape on tensor cores did not gain from it (TF32 6.51 on 64 tiles, 6.68
 * on 128; f16 6.18 and 6.42), so those keep their counts. */
static int exact_f32(const ggi_gemm_type *t) { return t->in == GG_F32 && !t->complex && !t->tf32; }
static int gemm_min_tiles(const ggi_gemm_type *t)
{
  if (elem_bytes(t) <= 2) return 32;
  return exact_f32(t) ? 128 : 64;
}
static int gemm_max_area(unsigned elem) { return elem <= 2 ? 32 * 32 : 64 * 64; }
/* A's and B's panels of one K step kept under this, so 3 blocks still
 * share an SM (228 KiB on the H100); under it the whole K is one step: one
 * round trip to global memory instead of one per step (the steps are not
 * double-buffered). */
#define GEMM_STEP_BUDGET (64u * 1024u)
/* Tiles are multiples of this: the tensor-core MMA is 16 x 8 x 16 (f16,
 * bf16); f32 and f64 take any size but keep the same shapes. */
#define GEMM_QUANTUM 16

static int round_up(int x, int q) { return (x + q - 1) / q * q; }
static int min_int(int a, int b) { return a < b ? a : b; }
static long long tiles_of(int m, int n, int tm, int tn)
{
  return (long long)((m + tm - 1) / tm) * ((n + tn - 1) / tn);
}

/* shared memory of one K step: A's tm x tk panel, B's tk x tn panel */
static uint64_t step_bytes(const int t[3], unsigned elem)
{
  return aligned_bytes((uint64_t)t[0] * t[2], elem) + aligned_bytes((uint64_t)t[2] * t[1], elem);
}

/* tm x tn: the largest of these (clamped to C rounded up to 16), of at
 * most max_area elements, that gives at least min_tiles tiles, else the
 * one with the most.  Of two of one area the taller comes first, or with
 * wide_first the wider: exact f32's 256 x 256 x 128 ran 6.59-6.63 us on
 * 128 tiles of 16 x 32 and 7.35 on 128 of 32 x 16 (H200, mathdx_bench
 * 2026-11-28 18:02 and 18:06); f16's 32 x 16 was measured, not 16 x 32. */
static void choose_mn(int m, int n, int min_tiles, int max_area, int wide_first, int t[3])
{
  static const int tall[][2] = {{64, 64}, {64, 32}, {32, 64}, {32, 32},
                                {32, 16}, {16, 32}, {16, 16}};
  static const int wide[][2] = {{64, 64}, {32, 64}, {64, 32}, {32, 32},
                                {16, 32}, {32, 16}, {16, 16}};
  const int (*cand)[2] = wide_first ? wide : tall;
  const int nc = (int)(sizeof tall / sizeof tall[0]);
  for (int i = 0; i < nc; i++) {
    if (cand[i][0] * cand[i][1] > max_area) continue;
    t[0] = min_int(cand[i][0], round_up(m, GEMM_QUANTUM));
    t[1] = min_int(cand[i][1], round_up(n, GEMM_QUANTUM));
    if (tiles_of(m, n, t[0], t[1]) >= min_tiles) return;
  }
}

static int steps_of(int kk, int tk) { return (kk + tk - 1) / tk; }

/* tk: all of K when A's and B's panels fit GEMM_STEP_BUDGET - K itself
 * for a type cuBLASDx multiplies with FMAs (f32, c32: no zeros staged or
 * multiplied, and the panels are whole where the tile divides M and N,
 * so cuBLASDx's copy stages the 16-byte aligned ones: panels_copied), K
 * rounded up to 16 on tensor cores (the pad is zeros) - else the largest
 * power of two that fits.  With split_k = S, K's share of one split
 * instead, so that K has at least S steps where it can (S x 16 <= K
 * rounded up): the S blocks of a tile then each load one step's panels. */
static void choose_k(int kk, int split, const ggi_gemm_type *ty, int t[3])
{
  const unsigned elem = elem_bytes(ty);
  t[2] = kk;
  if (split <= 1 && ty->fma && step_bytes(t, elem) <= GEMM_STEP_BUDGET) return;
  t[2] = round_up((kk + split - 1) / split, GEMM_QUANTUM);
  while (t[2] > GEMM_QUANTUM && steps_of(kk, t[2]) < split) t[2] -= GEMM_QUANTUM;
  while (t[2] > GEMM_QUANTUM && step_bytes(t, elem) > GEMM_STEP_BUDGET) {
    int p = GEMM_QUANTUM;
    while (2 * p < t[2]) p *= 2;
    t[2] = p;
  }
}

/* split_k = S: each of S blocks takes K steps [s steps / S, (s + 1)
 * steps / S) of one tile (every one at least a step when S <= steps),
 * leaves its partial tile in its slot of the workspace and takes the
 * tile's ticket; the last of the S to arrive sums the S partials in split
 * order (the same sum whichever arrived last) and runs the epilogue
 * (templates/common/gemm.cuh).  A slot: 16 bytes of words (its busy flag,
 * the group's ticket in the group's first slot), then tm x tn elements of
 * C.  Slots above this are refused: a tile that large holds more
 * accumulators than a block's registers anyway. */
#define GEMM_SPLIT_HEAD 16u
#define GEMM_SPLIT_SLOT_MAX (256u * 1024u)
static uint64_t split_partial_bytes(const int t[3], const ggi_gemm_type *ty)
{
  const unsigned c = ggi_dtype_size(ty->out) * (ty->complex ? 2u : 1u);
  return aligned_bytes((uint64_t)t[0] * t[1], c);
}
static uint64_t split_slot_bytes(const int t[3], const ggi_gemm_type *ty)
{
  return GEMM_SPLIT_HEAD + split_partial_bytes(t, ty);
}

/* The block of a tile left to the plan: each thread keeps about
 * tm x tn / block accumulators in registers, 128 threads up to a 32 x 32
 * tile (at most 8 each), 256 from there. */
static int block_for(const int tile[3]) { return tile[0] * tile[1] <= 32 * 32 ? 128 : 256; }

int ggi_gemm_tile_candidates(const ggi_kernel *k, int out[][3], int max)
{
  const ggi_gemm_type *ty = k->gemm_type;
  if (!ty || max < 1) return 0;
  const int m = k->gemm_size[0], n = k->gemm_size[1], kk = k->gemm_size[2];
  const unsigned elem = elem_bytes(ty);
  const int mt = gemm_min_tiles(ty), wf = exact_f32(ty);
  /* the plan's tile; the other of two tiles of one area; then the tiles
     aiming at 2x, 1/2, 4x, 1/4 and 1/8 of its count of tiles, nearest
     first */
  const int aim[][2] = {{mt, wf}, {mt, !wf}, {2 * mt, wf}, {mt / 2, wf},
                        {4 * mt, wf}, {mt / 4, wf}, {mt / 8, wf}};
  int nout = 0;
  for (int i = 0; i < (int)(sizeof aim / sizeof aim[0]) && nout < max; i++) {
    int t[3] = {0, 0, 0};
    choose_mn(m, n, aim[i][0], gemm_max_area(elem), aim[i][1], t);
    choose_k(kk, k->gemm_split, ty, t);
    /* a variant runs where the kernel does, on its block: a persistent
       kernel runs a gemm command on exactly the gemm's block */
    int seen = nout > 0 && k->block <= 0 && block_for(t) != block_for(out[0]);
    for (int j = 0; j < nout; j++)
      seen |= out[j][0] == t[0] && out[j][1] == t[1] && out[j][2] == t[2];
    if (!seen) {
      memcpy(out[nout], t, sizeof t);
      nout++;
    }
  }
  return nout;
}

int ggi_gemm_split_fits(const ggi_kernel *k, const int tile[3], ggi_diag *d)
{
  if (k->gemm_split <= 1) return 0;
  const int kk = k->gemm_size[2], steps = steps_of(kk, tile[2]);
  const uint64_t partial = split_partial_bytes(tile, k->gemm_type);
  /* gg_split_meet's word of static shared memory, beside the panels */
  const uint64_t smem = step_bytes(tile, elem_bytes(k->gemm_type)) + GEMM_SMEM_ALIGN;
  if (steps < k->gemm_split)
    return ggi_fail(d, "split_k = %d: K = %d has %d step(s) of %d (tk), and each split needs at "
                    "least one: give split_k at most %d%s", k->gemm_split, kk, steps, tile[2],
                    steps, k->gemm_tile[0] > 0 ? ", or a smaller tk" : "");
  if (partial > GEMM_SPLIT_SLOT_MAX)
    return ggi_fail(d, "split_k = %d: a block's partial %d x %d tile takes %llu bytes of "
                    "workspace, more than %u: give a smaller tile", k->gemm_split, tile[0],
                    tile[1], (unsigned long long)partial, GEMM_SPLIT_SLOT_MAX);
  if (smem > ggi_shared_limit(GGI_TARGET_CUDA))
    return ggi_fail(d, "split_k = %d: the %d x %d x %d tile's panels leave no room for the "
                    "split's word of shared memory (%llu bytes of %u): give a smaller tile",
                    k->gemm_split, tile[0], tile[1], tile[2], (unsigned long long)smem,
                    (unsigned)ggi_shared_limit(GGI_TARGET_CUDA));
  return 0;
}

/* Elements per global load of a panel (gemm.cuh): 16 bytes of them when
 * every load stays inside one stored row and starts 16-byte aligned - the
 * panel's run along the stored rows (pc, or pr when transposed), the
 * stored row length and so every panel corner a multiple of it (a panel
 * starts at multiples of the tile side, which the run divides; an item is
 * a whole number of rows; a view is a whole gg_array, whose base is
 * 256-byte aligned, or page-aligned host memory) - else 1.  A load is
 * then all inside the matrix or all outside, so one bounds check covers
 * it.  f16 panels of 16 x 128 took
 * 32 two-byte loads per thread of 128 where 16-byte ones take 4: on the
 * H100 (mathdx_bench, frames, p50) f16 128^3 went from 7.36 to 6.66 us,
 * f32 256 x 256 x 128 from 15.08 to 8.85 us. */
static int panel_vector(int pr, int pc, int trans, int lr, int lc, unsigned elem)
{
  const int v = 16 / (int)elem, run = trans ? pr : pc, row = trans ? lr : lc;
  return v > 1 && run % v == 0 && row % v == 0 ? v : 1;
}

/* Whether every panel of a matrix is whole - the tile's sides divide the
 * stored matrix's (lr x lc as the panel sees it: M x K for A, K x N for
 * B) - and 16-byte aligned (vec > 1, panel_vector): then gemm.cuh copies
 * the panel with cuBLASDx's copy (cp.async, 16 bytes a thread at a time
 * into shared memory in its swizzled layout) instead of loading 16 bytes
 * and storing them to shared memory element by element, which for f16
 * took 8 two-byte stores per load, 4-way bank conflicted.  Measured on
 * the H200 (mathdx_bench, frames, p50, 2026-11-29): f16 256 x 256 x 128
 * went from 6.46 to 4.91 us, f16 128^3 from 5.62 to 4.85, and f32
 * 64 x 64 x 1024 (K in 2 steps of 512, 32 loads a thread held in
 * registers) from 45.7 to 16.2. */
static int panel_whole(int pr, int pc, int lr, int lc, int vec)
{
  return vec > 1 && lr % pr == 0 && lc % pc == 0;
}

/* Both flags of the plan (GEMM_COPY_A, GEMM_COPY_B) for a tile */
static void panels_copied(const ggi_kernel *k, const int t[3], int copy[2], int vec[2])
{
  const int m = k->gemm_size[0], n = k->gemm_size[1], kk = k->gemm_size[2];
  const int ta = k->gemm_trans[0] != GGI_GEMM_OP_N, tb = k->gemm_trans[1] != GGI_GEMM_OP_N;
  const unsigned e = elem_bytes(k->gemm_type);
  vec[0] = panel_vector(t[0], t[2], ta, m, kk, e);
  vec[1] = panel_vector(t[2], t[1], tb, kk, n, e);
  copy[0] = panel_whole(t[0], t[2], m, kk, vec[0]);
  copy[1] = panel_whole(t[2], t[1], kk, n, vec[1]);
}

/* explain's line on the element types and the ops */
static const char *types_why(const ggi_kernel *k, ggi_arena *a)
{
  const ggi_gemm_type *t = k->gemm_type;
  char buf[400];
  int n = snprintf(buf, sizeof buf, "type %s: A and B %s, C %s (%s)", t->name,
                   t->complex ? t->name : ggi_dtype_name(t->in),
                   t->complex ? t->name : ggi_dtype_name(t->out), t->why_c);
  if (t->complex && n > 0 && (size_t)n < sizeof buf)
    n += snprintf(buf + n, sizeof buf - n, ", views of %s (re, im) pairs read as cuBLASDx's "
                  "complex<%s>", ggi_dtype_name(t->in), ggi_dtype_ctype(t->in));
  for (int i = 0; i < 2 && n > 0 && (size_t)n < sizeof buf; i++)
    n += snprintf(buf + n, sizeof buf - n, "%s op_%c %s (%s%s)", i ? "," : ";", "ab"[i],
                  ggi_gemm_op_names[k->gemm_trans[i]], ggi_gemm_op_words[k->gemm_trans[i]],
                  k->gemm_trans[i] == GGI_GEMM_OP_C ? ": cuBLASDx's conjugate load op on the "
                                                     "panel in shared memory" : "");
  return ggi_strdup(a, buf);
}

int ggi_gemm_shape(const ggi_kernel *k, int tile[3], int *block, const char *why[3],
                   ggi_arena *a, ggi_diag *d)
{
  const ggi_gemm_type *ty = k->gemm_type;
  const int m = k->gemm_size[0], n = k->gemm_size[1], kk = k->gemm_size[2];
  char buf[800];
  if (!ty) return ggi_fail(d, "gemm types missing (a gpugen bug)");
  const unsigned elem = elem_bytes(ty);
  if (k->gemm_tile[0] > 0) {
    memcpy(tile, k->gemm_tile, sizeof k->gemm_tile);
    /* a K step past all of K (rounded up to 16) would only stage zeros */
    const int past = tile[2] > round_up(kk, GEMM_QUANTUM);
    if (past) tile[2] = round_up(kk, GEMM_QUANTUM);
    uint64_t b = step_bytes(tile, elem);
    if (b > ggi_shared_limit(GGI_TARGET_CUDA))
      return ggi_fail(d, "tile = { %d, %d, %d }: A's %d x %d and B's %d x %d %s panels need %llu "
                      "bytes of shared memory; a CUDA block holds at most %u: give a smaller tile "
                      "(tk is the K step)", tile[0], tile[1], tile[2], tile[0], tile[2], tile[2],
                      tile[1], ty->name, (unsigned long long)b,
                      (unsigned)ggi_shared_limit(GGI_TARGET_CUDA));
    const int steps = steps_of(kk, tile[2]);
    char was[80] = "";
    if (past)
      snprintf(was, sizeof was, "; tk %d as written is past K = %d, so all of K in one step",
               k->gemm_tile[2], kk);
    const long long nt = tiles_of(m, n, tile[0], tile[1]);
    snprintf(buf, sizeof buf, "tile %d x %d, K step %d: as written (%lld tile%s of C per batch "
             "item, %d K step%s%s)", tile[0], tile[1], tile[2], nt, nt == 1 ? "" : "s", steps,
             steps == 1 ? "" : "s", was);
  } else {
    choose_mn(m, n, gemm_min_tiles(ty), gemm_max_area(elem), exact_f32(ty), tile);
    choose_k(kk, k->gemm_split, ty, tile);
    snprintf(buf, sizeof buf, "tile %d x %d, K step %d: %lld tiles of C per batch item (the "
             "largest tile, in multiples of 16 and of at most %d elements for %s, that gives %d "
             "or the most below that), K in %d step(s) of A and B panels that fit %u KiB of "
             "shared memory%s%s; edge tiles load zeros and store only inside C", tile[0],
             tile[1], tile[2], tiles_of(m, n, tile[0], tile[1]), gemm_max_area(elem), ty->name,
             gemm_min_tiles(ty), steps_of(kk, tile[2]), GEMM_STEP_BUDGET / 1024,
             k->gemm_split > 1 ? " (K / split_k rounded up to 16, lowered by 16 until K has "
                                 "split_k steps)" : "",
             tile[2] == kk && kk % GEMM_QUANTUM && ty->fma ? ", the step K itself, not rounded "
                                                            "up to 16 (FMAs, no tensor cores)"
                                                          : "");
  }
  if (k->gemm_split > 1) {
    const int steps = steps_of(kk, tile[2]);
    const uint64_t slot = split_slot_bytes(tile, ty);
    const size_t len = strlen(buf);
    snprintf(buf + len, sizeof buf - len, "; split_k %d: K's %d steps in %d ranges, each on its "
             "own block (%lld blocks per batch item), whose partial tile goes to the workspace "
             "(%llu bytes a block); the last of a tile's %d blocks to finish sums the partials in "
             "split order and stores", k->gemm_split, steps, k->gemm_split,
             tiles_of(m, n, tile[0], tile[1]) * k->gemm_split, (unsigned long long)slot,
             k->gemm_split);
  }
  int copy[2], vec[2];
  panels_copied(k, tile, copy, vec);
  if (copy[0] || copy[1]) {
    const size_t len = strlen(buf);
    snprintf(buf + len, sizeof buf - len, "; %s panels whole and 16-byte aligned: cuBLASDx's "
             "copy (cp.async) stages them", copy[0] && copy[1] ? "A's and B's" : copy[0] ? "A's"
                                                                                    : "B's");
  }
  why[0] = ggi_strdup(a, buf);
  if (k->block > 0) {
    *block = k->block;
    snprintf(buf, sizeof buf, "block %d: as written (cuBLASDx's BlockDim)", *block);
  } else {
    *block = block_for(tile);
    const int per = (tile[0] * tile[1] + *block - 1) / *block;
    snprintf(buf, sizeof buf, "block %d: the tile is %d x %d, so each thread holds about %d "
             "accumulator%s in registers (128 threads up to 32 x 32, 256 above)", *block,
             tile[0], tile[1], per, per == 1 ? "" : "s");
  }
  why[1] = ggi_strdup(a, buf);
  why[2] = types_why(k, a);
  return 0;
}

/* split_k's slots, one a block, the kernel's whole workspace (load_gemm.c
 * refuses split_k with into, whose reduction would need one too);
 * GEMM_SPLIT_WS is where they start, for the template. */
static int split_workspace(ggi_plan *p, ggi_arena *a, const int t[3], const ggi_gemm_type *ty,
                           int split, ggi_diag *d)
{
  if (split > 1 && (p->ws_fixed || p->ws_per_block))
    return ggi_fail(d, "split_k beside another workspace (a gpugen bug)");
  int rc = add_str(p, "GEMM_SPLIT_WS", split > 1 ? "((char *)args.gg_ws)" : "nullptr");
  const uint64_t slot = split > 1 ? split_slot_bytes(t, ty) : 0;
  rc |= add_key(p, a, "GEMM_SPLIT_SLOT", "%lldu", (long long)slot);
  rc |= add_key(p, a, "GEMM_SPLIT_HEAD", "%lldu", (long long)GEMM_SPLIT_HEAD);
  p->ws_per_block += (uint32_t)slot;
  return rc ? ggi_fail(d, "too many template values (a gpugen bug)") : 0;
}

int ggi_gemm_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  const ggi_param *va = view(k, 0), *vb = view(k, 1), *vc = view(k, 2);
  if (!va || !vb || !vc) return ggi_fail(d, "gemm views missing (a gpugen bug)");
  if (target != GGI_TARGET_CUDA) return ggi_fail(d, "pattern \"gemm\" is CUDA only (cuBLASDx)");
  const int m = k->gemm_size[0], n = k->gemm_size[1], kk = k->gemm_size[2];
  const int *t = k->spec.gemm_tile; /* specialize.c asked ggi_gemm_shape */
  if (t[0] < 1 || t[1] < 1 || t[2] < 1) return ggi_fail(d, "gemm tile not chosen (a gpugen bug)");
  const ggi_gemm_type *ty = k->gemm_type;
  uint64_t smem = step_bytes(t, elem_bytes(ty));
  if (smem > ggi_shared_limit(target))
    return ggi_fail(d, "the %d x %d x %d tile needs %llu bytes of shared memory; a CUDA block "
                    "holds at most %u", t[0], t[1], t[2], (unsigned long long)smem,
                    (unsigned)ggi_shared_limit(target));
  p->grid_rule = GG_GRID_LEAGUE; /* batch items ... */
  const int split = k->gemm_split > 1 ? k->gemm_split : 1;
  p->league_blocks = tiles_of(m, n, t[0], t[1]) * split; /* ... x C's tiles x K's splits */
  /* split_k's slots are one a block, sized for the co-resident blocks
     (runtime/module.c): a larger grid is capped, its blocks stride */
  if (split > 1) p->cap_resident = 1;
  p->shared_bytes = (uint32_t)smem;
  /* cuBLASDx's BlockDim is the block: exactly that many threads, the
     whole hardware block (it synchronizes with __syncthreads) */
  p->min_threads = p->max_threads = k->spec.block;
  p->whole_block = 1;
  p->features |= GG_FEAT_MATHDX;
  /* row-major views: op "n" reads A (M x K) row-major; op "t" reads the
     stored K x M row-major matrix as M x K column-major (same for B); the
     shared panels take the same arrangement, so a warp's loads from
     global memory and its stores to shared memory both run along the
     stored rows */
  int rc = 0;
  rc |= add_key(p, a, "GEMM_M", "%lld", m);
  rc |= add_key(p, a, "GEMM_N", "%lld", n);
  rc |= add_key(p, a, "GEMM_K", "%lld", kk);
  rc |= add_key(p, a, "GEMM_TM", "%lld", t[0]);
  rc |= add_key(p, a, "GEMM_TN", "%lld", t[1]);
  rc |= add_key(p, a, "GEMM_TK", "%lld", t[2]);
  rc |= add_key(p, a, "GEMM_TILES_N", "%lld", (n + t[1] - 1) / t[1]);
  rc |= add_key(p, a, "GEMM_TILES", "%lld", tiles_of(m, n, t[0], t[1]));
  rc |= add_key(p, a, "GEMM_STEPS", "%lld", steps_of(kk, t[2]));
  rc |= add_key(p, a, "GEMM_SPLIT", "%lld", split);
  rc |= add_key(p, a, "GEMM_SMEM", "%lldu", (long long)smem);
  const int ta = k->gemm_trans[0] != GGI_GEMM_OP_N, tb = k->gemm_trans[1] != GGI_GEMM_OP_N;
  rc |= add_key(p, a, "GEMM_TRANS_A", "%lld", ta);
  rc |= add_key(p, a, "GEMM_TRANS_B", "%lld", tb);
  int copy[2], vec[2];
  panels_copied(k, t, copy, vec);
  rc |= add_key(p, a, "GEMM_VEC_A", "%lld", vec[0]);
  rc |= add_key(p, a, "GEMM_VEC_B", "%lld", vec[1]);
  rc |= add_key(p, a, "GEMM_COPY_A", "%lld", copy[0]);
  rc |= add_key(p, a, "GEMM_COPY_B", "%lld", copy[1]);
  /* cuBLASDx's Precision */
  rc |= add_str(p, "GEMM_PA", ty->precision ? ty->precision : ggi_dtype_ctype(va->dtype));
  rc |= add_str(p, "GEMM_PC", ggi_dtype_ctype(vc->dtype));
  rc |= add_str(p, "GEMM_TYPE", ty->complex ? "cublasdx::type::complex" : "cublasdx::type::real");
  /* op "c": the panel is staged as "t" and conjugated as cuBLASDx loads it */
  rc |= add_str(p, "GEMM_LOAD_A", k->gemm_trans[0] == GGI_GEMM_OP_C ? "::cublasdx::conjugate"
                                                                     : "::cublasdx::identity");
  rc |= add_str(p, "GEMM_LOAD_B", k->gemm_trans[1] == GGI_GEMM_OP_C ? "::cublasdx::conjugate"
                                                                     : "::cublasdx::identity");
  rc |= add_str(p, "GEMM_ARR_A", ta ? "cublasdx::col_major" : "cublasdx::row_major");
  rc |= add_str(p, "GEMM_ARR_B", tb ? "cublasdx::col_major" : "cublasdx::row_major");
  rc |= add_str(p, "GEMM_A", va->name);
  rc |= add_str(p, "GEMM_B", vb->name);
  rc |= add_str(p, "GEMM_C", vc->name);
  rc |= add_str(p, "GEMM_ALPHA", k->gemm_scale[0]);
  rc |= add_str(p, "GEMM_ALPHA_IM", k->gemm_scale_im[0]);
  rc |= add_str(p, "GEMM_BETA", k->gemm_scale[1]);
  rc |= add_str(p, "GEMM_BETA_IM", k->gemm_scale_im[1]);
  rc |= add_key(p, a, "GEMM_POST", "%lld", k->body != NULL);
  if (rc) return ggi_fail(d, "out of memory");
  /* gemm.cuh (the tiles and their epilogue), then the body: plain, or
     with the post statements' contributions combined (the tiles strided
     over the grid that leaves) */
  if (ggi_contribute_pieces(k, a, p, d, "common/gemm.cuh", "common/gemm_tail.cuh",
                            "common/gemm_reduce_tail.cuh") != 0)
    return -1;
  return split_workspace(p, a, t, ty, split, d);
}
