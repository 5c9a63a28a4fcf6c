/*
 * test_gemm_gpu - pattern "gemm" (cuBLASDx block GEMM tiled over blocks,
 * tests/mathdx/gemm_gpu.lua) on the GPU against a CPU reference in double:
 *   - classic launches of every kernel: f32, f64, and f16 / bf16 inputs
 *     with f32 accumulation, each with all four transposes, at sizes that
 *     are not multiples of the tile (40^3, 48x24x72, 12x20x28, 100x36x52,
 *     130x128x64: edge tiles, a K pad) and at 128^3 (16 tiles of 32 x 32),
 *     some with tile = {...} so that K takes several steps (the last one
 *     partial); at batch 3, 1 and 37 (batch x tiles blocks), and on a grid
 *     of 2 blocks (each strides over batch x tiles); one 12x20x28 matrix
 *     (rank-2 views);
 *   - beta 0 and -0.0 (a run-time argument and a constant with an "out"
 *     C): C holds NaN and must not be read;
 *   - the 40^3 and 128^3 gemm as persistent commands (one_block: one
 *     block strides over every tile; many_blocks) and as the first stage
 *     of a frame (gemm, then a scale of C that depends on it), up to
 *     10 000 frames each with new inputs, alpha, beta and s;
 *   - split_k (g40s, d37s, h64s, b48s): the classic launches above, and
 *     g40s as a command and a frame's first stage on 10 blocks (3 groups
 *     of 3 blocks, each group taking several tiles in turn, the tenth
 *     block idle) and on one block (no group: all of K in one block);
 *     the same C, bit for bit, from a launch of 90 blocks and from the
 *     10-block session; and partials (2^24, 1, -2^24) whose sum is 0
 *     only in split order, whichever block of a group arrives last.
 * The tolerance is relative to the sum of the magnitudes of the terms:
 * 1e-5 in f32 (inputs are exact in f16/bf16, so tensor cores add no
 * error of their own beyond f32 accumulation), 1e-12 in f64.
 * Label gpu; exit 77 without a GPU or without MathDx (with the message
 * that says how to install it).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_gpu.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define MAXB 40      /* batch items */
#define MAXE (130 * 128) /* elements of the largest A, B or C of one item */

/* the batch extent b and the view B get two constants (names.c ggi_arg_id) */
_Static_assert(GG_GEMM_GPU_G40_B == 1 && GG_GEMM_GPU_G40_b == 5 && GG_GEMM_GPU_G40_NARGS == 6,
               "header constants of g40");

static gg_context *ctx;
static gg_module *mod;
static int failures;


/* One problem: sizes, transposes, element types, the host copy of the
 * inputs as doubles, and the device (mapped) arrays. */
typedef struct problem {
  const char *kernel;
  int m, n, k, ta, tb;
  gg_dtype tin, tc;
  int runtime_scale;   /* alpha, beta are arguments (else alpha0, beta0) */
  double alpha0, beta0;
  int one;             /* rank-2 views: one matrix, no batch extent */
} problem;

static const problem problems[] = {
  {"g40", 40, 40, 40, 0, 0, GG_F32, GG_F32, 1, 0, 0, 0},
  {"g128", 128, 128, 128, 0, 0, GG_F32, GG_F32, 1, 0, 0, 0},
  {"g48t", 48, 24, 72, 1, 0, GG_F32, GG_F32, 0, 1.5, 0, 0},
  {"g100", 100, 36, 52, 0, 1, GG_F32, GG_F32, 0, -2, -0.0, 0},
  {"g130", 130, 128, 64, 1, 1, GG_F32, GG_F32, 0, 0.5, 2, 0},
  {"d64", 64, 64, 64, 0, 1, GG_F64, GG_F64, 0, 2, -1, 0},
  {"d100", 100, 36, 52, 0, 0, GG_F64, GG_F64, 0, 1, 0.5, 0},
  {"d40", 40, 40, 40, 1, 0, GG_F64, GG_F64, 0, -1, 0, 0},
  {"d130", 130, 128, 64, 1, 1, GG_F64, GG_F64, 0, 3, 1, 0},
  {"d128", 128, 128, 128, 1, 0, GG_F64, GG_F64, 0, 1, -2, 0},
  {"h48", 48, 24, 72, 1, 1, GG_F16, GG_F32, 0, 1, 0, 0},
  {"h130", 130, 128, 64, 0, 0, GG_F16, GG_F32, 0, 2, 0.5, 0},
  {"h12", 12, 20, 28, 1, 0, GG_F16, GG_F32, 0, -1, 1, 0},
  {"h40", 40, 40, 40, 0, 1, GG_F16, GG_F32, 0, 0.25, 0, 0},
  {"h128", 128, 128, 128, 1, 0, GG_F16, GG_F32, 0, 1, 1, 0},
  {"b64", 64, 64, 64, 0, 0, GG_BF16, GG_F32, 0, 0.5, 0.25, 0},
  {"b100", 100, 36, 52, 0, 1, GG_BF16, GG_F32, 0, 1, -1, 0},
  {"b130", 130, 128, 64, 1, 0, GG_BF16, GG_F32, 0, -0.5, 0, 0},
  {"b40", 40, 40, 40, 1, 1, GG_BF16, GG_F32, 0, 1, 3, 0},
  {"b128", 128, 128, 128, 0, 0, GG_BF16, GG_F32, 0, 1, 0, 0},
  {"one", 12, 20, 28, 1, 1, GG_F32, GG_F32, 0, -1, 3, 1},
  /* f32 K steps of all of K: odd, whole panels copied */
  {"g37", 64, 64, 37, 1, 0, GG_F32, GG_F32, 0, 1, 1, 0},
  {"g3", 64, 48, 3, 0, 0, GG_F32, GG_F32, 0, -1, 0, 0},
  /* split_k 3, 4, 4, 5: classic launches on batch x tiles x split blocks
     (capped at the co-resident ones), and on 2 blocks (fewer than a group:
     each block runs all of K) */
  {"g40s", 40, 24, 300, 0, 0, GG_F32, GG_F32, 1, 0, 0, 0},
  {"d37s", 37, 29, 150, 0, 1, GG_F64, GG_F64, 0, 2, -1, 0},
  {"h64s", 64, 64, 256, 1, 0, GG_F16, GG_F32, 0, 1, 0.5, 0},
  {"b48s", 48, 40, 200, 0, 0, GG_BF16, GG_F32, 0, -0.5, 0, 0},
};

static gg_array *arr_a, *arr_b, *arr_c;
static double ha[MAXB * MAXE], hb[MAXB * MAXE], hc[MAXB * MAXE], want[MAXB * MAXE],
    mag[MAXB * MAXE];

static uint32_t rng = 12345;
/* quarters in [-1, 1]: exact in f16, bf16, f32 and f64 */
static double small_value(void)
{
  rng = rng * 1664525u + 1013904223u;
  return (double)((int)(rng >> 24) % 9 - 4) / 4.0;
}

static uint16_t to_bf16(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16); /* exact for the values above */
}

static uint16_t to_f16(float f)
{
  if (f == 0) return 0;
  uint16_t sign = f < 0 ? 0x8000 : 0;
  int e;
  double m = frexp(fabs(f), &e); /* f = m 2^e, m in [0.5, 1) */
  return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((m * 2 - 1) * 1024);
}

static void store(gg_array *arr, gg_dtype t, const double *v, size_t n)
{
  void *p = gg_array_host(arr);
  for (size_t i = 0; i < n; i++) {
    if (t == GG_F64) ((double *)p)[i] = v[i];
    else if (t == GG_F32) ((float *)p)[i] = (float)v[i];
    else if (t == GG_F16) ((uint16_t *)p)[i] = to_f16((float)v[i]);
    else ((uint16_t *)p)[i] = to_bf16((float)v[i]);
  }
}

static double load_c(gg_dtype t, size_t i)
{
  void *p = gg_array_host(arr_c);
  return t == GG_F64 ? ((double *)p)[i] : ((float *)p)[i];
}

/* New inputs for nb items; C gets NaN where it must not be read (beta 0). */
static void fill(const problem *pr, int nb, double beta)
{
  size_t na = (size_t)nb * pr->m * pr->k, nbb = (size_t)nb * pr->k * pr->n,
         nc = (size_t)nb * pr->m * pr->n;
  for (size_t i = 0; i < na; i++) ha[i] = small_value();
  for (size_t i = 0; i < nbb; i++) hb[i] = small_value();
  for (size_t i = 0; i < nc; i++) hc[i] = beta == 0 ? NAN : small_value();
  store(arr_a, pr->tin, ha, na);
  store(arr_b, pr->tin, hb, nbb);
  store(arr_c, pr->tc, hc, nc);
}

/* want = s (alpha op(A) op(B) + beta C), and the magnitude of its terms. */
static void reference(const problem *pr, int nb, double alpha, double beta, double s)
{
  const int M = pr->m, N = pr->n, K = pr->k;
  for (int b = 0; b < nb; b++) {
    const double *a = ha + (size_t)b * M * K, *bb = hb + (size_t)b * K * N;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        double acc = 0, m = 0;
        for (int p = 0; p < K; p++) {
          double x = pr->ta ? a[p * M + i] : a[i * K + p];
          double y = pr->tb ? bb[j * K + p] : bb[p * N + j];
          acc += x * y;
          m += fabs(x * y);
        }
        size_t c = (size_t)b * M * N + (size_t)i * N + j;
        double cin = beta == 0 ? 0 : hc[c];
        want[c] = s * (alpha * acc + beta * cin);
        mag[c] = fabs(s) * (fabs(alpha) * m + fabs(beta * cin));
      }
  }
}

static void verify(const problem *pr, int nb, const char *where)
{
  double tol = pr->tc == GG_F64 ? 1e-12 : 1e-5;
  size_t nc = (size_t)nb * pr->m * pr->n;
  int bad = 0;
  for (size_t i = 0; i < nc && bad < 3; i++) {
    double got = load_c(pr->tc, i);
    if (!(fabs(got - want[i]) <= tol * mag[i] + 1e-30)) {
      fprintf(stderr, "%s: %s batch %d: C[%zu] (item %zu, %zu, %zu) = %.17g, want %.17g\n", where,
              pr->kernel, nb, i, i / (pr->m * pr->n), i / pr->n % pr->m, i % pr->n, got, want[i]);
      bad++;
    }
  }
  if (bad) failures++;
}

static int args_of(const problem *pr, int nb, double alpha, double beta, gg_arg *a)
{
  int n = 0;
  a[n++] = gg_arg_array(arr_a);
  a[n++] = gg_arg_array(arr_b);
  a[n++] = gg_arg_array(arr_c);
  if (pr->runtime_scale) {
    a[n++] = gg_arg_f32((float)alpha);
    a[n++] = gg_arg_f32((float)beta);
  }
  if (!pr->one) a[n++] = gg_arg_i64(nb);
  return n;
}

/* Classic launches: one block per tile per item, then a 2-block grid. */
static void classic(const problem *pr)
{
  static const int batches[] = {3, 1, 37};
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, pr->kernel, &k));
  for (int t = 0; t < 4; t++) {
    int nb = pr->one ? 1 : batches[t % 3];
    double alpha = pr->runtime_scale ? 0.75 + t : pr->alpha0;
    /* run-time beta: 0, then -0.0 (both leave C unread), then nonzero */
    double beta = pr->runtime_scale ? (t == 1 ? 0 : t == 2 ? -0.0 : 0.5 * t - 0.25) : pr->beta0;
    fill(pr, nb, beta);
    reference(pr, nb, alpha, beta, 1);
    gg_arg a[8];
    int na = args_of(pr, nb, alpha, beta, a);
    if (t == 3) CHECK_OK(gg_launch_grid(k, NULL, 2, a, na));
    else CHECK_OK(gg_launch(k, NULL, a, na));
    CHECK_OK(gg_device_sync(ctx));
    verify(pr, nb, t == 3 ? "classic, 2 blocks" : "classic");
  }
}

/* Frames with new inputs each time: the gemm command alone (s = 1), or a
 * frame (gemm, then C *= s). */
static void frames(const char *persistent, const char *command, const problem *pr, int is_frame,
                   int maxb, int nframes)
{
  gg_session *s;
  CHECK_OK(gg_session_open(mod, persistent, NULL, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, command, &cmd));
  char where[128];
  snprintf(where, sizeof where, "%s, command %s, %d blocks", persistent, command,
           gg_session_blocks(s));
  for (int f = 0; f < nframes && failures < 5; f++) {
    int nb = 1 + f % maxb;
    double alpha = 0.25 * (f % 7) - 0.5, beta = f % 3 == 0 ? (f % 2 ? -0.0 : 0) : 0.125 * (f % 11) - 0.5;
    double scale = is_frame ? 0.5 + 0.25 * (f % 4) : 1;
    fill(pr, nb, beta);
    reference(pr, nb, alpha, beta, scale);
    gg_arg a[8];
    int na = args_of(pr, nb, alpha, beta, a);
    if (is_frame) { /* frame params: A B C alpha beta s, then the extent b */
      a[na - 1] = gg_arg_f32((float)scale);
      a[na++] = gg_arg_i64(nb);
    }
    CHECK_OK(gg_session_run(s, cmd, a, na, WAIT_NS));
    verify(pr, nb, where);
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

/* g40s's inputs (in ha, hb, hc and the arrays) through a launch of batch x
 * tiles x split blocks, whose C goes to launched, then (C restored) one
 * frame of the 10-block session p_split, whose C stays in arr_c. */
enum { SPLIT_NB = 5 };
static float launched[MAXB * MAXE];
static void split_launch_and_session(const problem *pr, double alpha, double beta)
{
  const size_t nc = (size_t)SPLIT_NB * pr->m * pr->n;
  gg_arg a[8];
  const int na = args_of(pr, SPLIT_NB, alpha, beta, a);
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, pr->kernel, &k));
  CHECK_OK(gg_launch(k, NULL, a, na));
  CHECK_OK(gg_device_sync(ctx));
  memcpy(launched, gg_array_host(arr_c), nc * sizeof(float));
  store(arr_c, pr->tc, hc, nc);
  gg_session *s;
  CHECK_OK(gg_session_open(mod, "p_split", NULL, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, pr->kernel, &cmd));
  CHECK_OK(gg_session_run(s, cmd, a, na, WAIT_NS));
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

/* The same bits from both (gemm_panel.cuh, gg_split_meet): values in
 * [-1, 1) with 24 random bits, so that the sums round. */
static void split_same_bits(const problem *pr)
{
  const size_t na = (size_t)SPLIT_NB * pr->m * pr->k, nb = (size_t)SPLIT_NB * pr->k * pr->n,
               nc = (size_t)SPLIT_NB * pr->m * pr->n;
  for (size_t i = 0; i < na; i++) ha[i] = (double)(float)(rand() / (RAND_MAX + 1.0) * 2 - 1);
  for (size_t i = 0; i < nb; i++) hb[i] = (double)(float)(rand() / (RAND_MAX + 1.0) * 2 - 1);
  for (size_t i = 0; i < nc; i++) hc[i] = (double)(float)(rand() / (RAND_MAX + 1.0));
  store(arr_a, pr->tin, ha, na);
  store(arr_b, pr->tin, hb, nb);
  store(arr_c, pr->tc, hc, nc);
  split_launch_and_session(pr, 0.75, 1);
  reference(pr, SPLIT_NB, 0.75, 1, 1);
  const float *got = gg_array_host(arr_c);
  int bad = 0;
  for (size_t i = 0; i < nc && bad < 3; i++)
    if (memcmp(&got[i], &launched[i], sizeof(float)) != 0 || !(fabs(got[i] - want[i]) <= 1e-5 * mag[i])) {
      fprintf(stderr, "%s: C[%zu] = %.9g in the session, %.9g launched, want %.9g\n", pr->kernel,
              i, got[i], launched[i], want[i]);
      bad++;
    }
  failures += bad != 0;
  if (!bad) printf("%s: a grid of %d blocks and a session of 10 gave the same bits\n", pr->kernel,
                   SPLIT_NB * 6 * 3);
}

/* The partials summed in split order, exactly: g40s's 3 ranges of K are
 * [0, 96), [96, 192), [192, 300) (10 steps of 32 in 3, 3, 4), and every
 * row of A is 1 at 0, 96 and 192, every column of B 2^24, 1 and -2^24
 * there, 0 elsewhere, so the partials are 2^24, 1 and -2^24.  In split
 * order 2^24 + 1 rounds to 2^24 (f32, ties to even) and the sum is 0;
 * any other order gives 1.  Every element of every tile and item: a
 * block that summed in the order its group arrived would show. */
static void split_order(const problem *pr)
{
  const int M = pr->m, N = pr->n, K = pr->k;
  const size_t nc = (size_t)SPLIT_NB * M * N;
  memset(ha, 0, sizeof ha);
  memset(hb, 0, sizeof hb);
  for (int b = 0; b < SPLIT_NB; b++)
    for (int q = 0; q < 3; q++) {
      for (int i = 0; i < M; i++) ha[((size_t)b * M + i) * K + 96 * q] = 1;
      for (int j = 0; j < N; j++) hb[((size_t)b * K + 96 * q) * N + j] = q == 1 ? 1 : q ? -0x1p24 : 0x1p24;
    }
  for (size_t i = 0; i < nc; i++) hc[i] = NAN; /* beta 0: not read */
  store(arr_a, pr->tin, ha, (size_t)SPLIT_NB * M * K);
  store(arr_b, pr->tin, hb, (size_t)SPLIT_NB * K * N);
  store(arr_c, pr->tc, hc, nc);
  split_launch_and_session(pr, 1, 0);
  const float *got = gg_array_host(arr_c);
  int bad = 0;
  for (size_t i = 0; i < nc && bad < 3; i++)
    if (got[i] != 0 || launched[i] != 0) {
      fprintf(stderr, "%s: C[%zu] = %.9g in the session, %.9g launched, want 0 (2^24 + 1 - 2^24 "
              "in split order)\n", pr->kernel, i, got[i], launched[i]);
      bad++;
    }
  failures += bad != 0;
  if (!bad) printf("%s: the partials summed in split order, every element\n", pr->kernel);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_check_mathdx(ctx);
  CHECK_OK(gg_module_load(ctx, &gg_module_gemm_gpu, &mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof ha, &arr_a));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hb, &arr_b));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hc, &arr_c));
  for (size_t i = 0; i < sizeof problems / sizeof *problems; i++) classic(&problems[i]);
  const problem *g40 = &problems[0], *g128 = &problems[1];
  frames("p_one", "g40", g40, 0, 5, 500);
  frames("p_many", "g40", g40, 0, 5, 2000);
  frames("p_one", "fr", g40, 1, 5, 500);
  frames("p_many", "fr", g40, 1, 5, 10000);
  /* 128^3: 16 tiles per item (one block takes them all in one_block) */
  frames("p_one", "g128", g128, 0, 3, 200);
  frames("p_many", "g128", g128, 0, 3, 2000);
  frames("p_one", "fr128", g128, 1, 2, 200);
  frames("p_many", "fr128", g128, 1, 2, 10000);
  /* split_k 3 */
  const problem *g40s = NULL;
  for (size_t i = 0; i < sizeof problems / sizeof *problems; i++)
    if (strcmp(problems[i].kernel, "g40s") == 0) g40s = &problems[i];
  frames("p_split", "g40s", g40s, 0, 7, 2000);
  frames("p_split", "frs", g40s, 1, 7, 5000);
  frames("p_one", "g40s", g40s, 0, 3, 100);
  srand(11);
  split_same_bits(g40s);
  split_order(g40s);
  gg_array_free(arr_a);
  gg_array_free(arr_b);
  gg_array_free(arr_c);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "test_gemm_gpu: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_gemm_gpu: ok\n");
  return 0;
}
