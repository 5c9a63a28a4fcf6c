/*
 * test_cgemm_gpu - complex gemm (type = "complex", c32 and c64: cuBLASDx
 * complex; tests/mathdx/cgemm_gpu.lua) on the GPU against a CPU reference
 * in double:
 *   - classic launches of every kernel: ops n, t and c (conjugate
 *     transposed) on A and on B, at 37 x 53 x 29 (edge tiles, a K pad)
 *     and at 64^3 / 32^3 (tile multiples), one matrix and batches of 3, 1
 *     and 37, one written tile whose K takes two steps, and on a grid of 2
 *     blocks (each strides over batch x tiles); K = 100 split over 4
 *     blocks (c32, batched) and 3 (c64), the partials summed by the last;
 *   - alpha and beta { re, im } at run time, beta 0 with C holding NaN
 *     (not read), and constant alpha / beta;
 *   - c_cc and z_tc as persistent commands (one_block, many_blocks) and
 *     as the first stage of a frame (fr and frz: then C *= s), with new
 *     inputs, alpha, beta and s each frame.
 * Inputs are quarters in [-1, 1] (re and im), so the products are exact in
 * f32 and f64 at these K; the tolerance is still the rounding a K-term
 * complex dot product may make, relative to the magnitude of the product:
 * |got - want| <= 8 K eps (|alpha| sum_p |a_ip| |b_pj| + |beta| |c_ij|),
 * eps 2^-24 (c32) or 2^-53 (c64).  A missing conjugate, a swapped
 * transpose or a lost imaginary part is off by far more.
 * Label gpu; exit 77 without a GPU or without MathDx.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgemm_gpu.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define MAXB 37            /* batch items */
#define MAXE (64 * 64 * 2) /* doubles of the largest A, B or C of one item */

static gg_context *ctx;
static gg_module *mod;
static int failures;

enum { OP_N, OP_T, OP_C };

/* One kernel of cgemm_gpu.lua: sizes, ops, precision, whether its views
 * are a batch, and its alpha / beta (run-time arguments, else constants). */
typedef struct problem {
  const char *kernel;
  int m, n, k, op_a, op_b;
  int f64;         /* c64, else c32 */
  int batched;     /* [b][rows][2 x cols], else one [rows][cols][2] */
  int runtime;     /* ar, ai, br, bi are arguments */
  double alpha[2], beta[2]; /* the constants otherwise */
} problem;

static const problem problems[] = {
  {"c_nn", 37, 53, 29, OP_N, OP_N, 0, 1, 1, {0}, {0}},
  {"c_tc", 37, 53, 29, OP_T, OP_C, 0, 1, 1, {0}, {0}},
  {"c_ct", 37, 53, 29, OP_C, OP_T, 0, 0, 1, {0}, {0}},
  {"c_cc", 37, 53, 29, OP_C, OP_C, 0, 1, 1, {0}, {0}},
  {"c_nc", 37, 53, 29, OP_N, OP_C, 0, 0, 1, {0}, {0}},
  {"c_cn", 37, 53, 29, OP_C, OP_N, 0, 1, 1, {0}, {0}},
  {"c64_nn", 64, 64, 64, OP_N, OP_N, 0, 1, 1, {0}, {0}},
  {"c64_cc", 64, 64, 64, OP_C, OP_C, 0, 0, 1, {0}, {0}},
  {"c_k3", 64, 48, 3, OP_C, OP_N, 0, 1, 1, {0}, {0}},
  {"c_k37", 32, 64, 37, OP_T, OP_C, 0, 0, 1, {0}, {0}},
  {"c_const", 37, 53, 29, OP_C, OP_N, 0, 1, 0, {0.5, -1.5}, {0, 0}},
  {"c_split", 37, 29, 100, OP_C, OP_N, 0, 1, 1, {0}, {0}},
  {"z_split", 37, 29, 100, OP_N, OP_T, 1, 0, 1, {0}, {0}},
  {"z_nn", 37, 53, 29, OP_N, OP_N, 1, 0, 1, {0}, {0}},
  {"z_ct", 37, 53, 29, OP_C, OP_T, 1, 1, 1, {0}, {0}},
  {"z_tc", 37, 53, 29, OP_T, OP_C, 1, 1, 1, {0}, {0}},
  {"z_cc", 37, 53, 29, OP_C, OP_C, 1, 0, 1, {0}, {0}},
  {"z32_tn", 32, 32, 32, OP_T, OP_N, 1, 1, 1, {0}, {0}},
  {"z_const", 37, 53, 29, OP_N, OP_C, 1, 0, 0, {2, 0}, {0, 1}},
};

static gg_array *arr_a, *arr_b, *arr_c;
/* (re, im) pairs, row-major as stored */
static double ha[MAXB * MAXE], hb[MAXB * MAXE], hc[MAXB * MAXE], want[MAXB * MAXE],
    mag[MAXB * MAXE / 2];

static uint32_t rng = 12345;
/* quarters in [-1, 1]: exact in f32 and f64 */
static double small_value(void)
{
  rng = rng * 1664525u + 1013904223u;
  return (double)((int)(rng >> 24) % 9 - 4) / 4.0;
}

static void store(gg_array *arr, int f64, const double *v, size_t n)
{
  void *p = gg_array_host(arr);
  for (size_t i = 0; i < n; i++) {
    if (f64) ((double *)p)[i] = v[i];
    else ((float *)p)[i] = (float)v[i];
  }
}

static double load_c(int f64, size_t i)
{
  void *p = gg_array_host(arr_c);
  return f64 ? ((double *)p)[i] : ((float *)p)[i];
}

/* New inputs for nb items; C gets NaN where it must not be read (beta 0). */
static void fill(const problem *pr, int nb, int beta_zero)
{
  size_t na = 2 * (size_t)nb * pr->m * pr->k, nbb = 2 * (size_t)nb * pr->k * pr->n,
         nc = 2 * (size_t)nb * pr->m * pr->n;
  for (size_t i = 0; i < na; i++) ha[i] = small_value();
  for (size_t i = 0; i < nbb; i++) hb[i] = small_value();
  for (size_t i = 0; i < nc; i++) hc[i] = beta_zero ? NAN : small_value();
  store(arr_a, pr->f64, ha, na);
  store(arr_b, pr->f64, hb, nbb);
  store(arr_c, pr->f64, hc, nc);
}

/* Element (r, c) of op(X), X stored row-major as rows x cols of pairs
 * (op n) or cols x rows (t, c); c conjugates. */
static void op_elem(const double *x, int op, int r, int c, int rows, int cols, double out[2])
{
  size_t at = op == OP_N ? (size_t)r * cols + c : (size_t)c * rows + r;
  out[0] = x[2 * at];
  out[1] = op == OP_C ? -x[2 * at + 1] : x[2 * at + 1];
}

/* want = s (alpha op(A) op(B) + beta C), and the magnitude of its terms. */
static void reference(const problem *pr, int nb, const double al[2], const double be[2], double s)
{
  const int M = pr->m, N = pr->n, K = pr->k;
  const int bz = be[0] == 0 && be[1] == 0;
  for (int b = 0; b < nb; b++) {
    const double *a = ha + 2 * (size_t)b * M * K, *bb = hb + 2 * (size_t)b * K * N;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        double re = 0, im = 0, m = 0;
        for (int p = 0; p < K; p++) {
          double x[2], y[2];
          op_elem(a, pr->op_a, i, p, M, K, x);
          op_elem(bb, pr->op_b, p, j, K, N, y);
          re += x[0] * y[0] - x[1] * y[1];
          im += x[0] * y[1] + x[1] * y[0];
          m += hypot(x[0], x[1]) * hypot(y[0], y[1]);
        }
        size_t c = (size_t)b * M * N + (size_t)i * N + j;
        double cr = bz ? 0 : hc[2 * c], ci = bz ? 0 : hc[2 * c + 1];
        want[2 * c] = s * (al[0] * re - al[1] * im + be[0] * cr - be[1] * ci);
        want[2 * c + 1] = s * (al[0] * im + al[1] * re + be[0] * ci + be[1] * cr);
        mag[c] = fabs(s) * (hypot(al[0], al[1]) * m + hypot(be[0], be[1]) * hypot(cr, ci));
      }
  }
}

static void verify(const problem *pr, int nb, const char *where)
{
  const double eps = pr->f64 ? 0x1p-53 : 0x1p-24, tol = 8.0 * pr->k * eps;
  size_t nc = (size_t)nb * pr->m * pr->n;
  int bad = 0;
  for (size_t i = 0; i < nc && bad < 3; i++)
    for (int h = 0; h < 2; h++) {
      double got = load_c(pr->f64, 2 * i + h);
      if (!(fabs(got - want[2 * i + h]) <= tol * mag[i] + 1e-30)) {
        fprintf(stderr, "%s: %s batch %d: C[%zu] (item %zu, %zu, %zu) %s = %.17g, want %.17g\n",
                where, pr->kernel, nb, i, i / (pr->m * pr->n), i / pr->n % pr->m, i % pr->n,
                h ? "im" : "re", got, want[2 * i + h]);
        bad++;
      }
    }
  if (bad) failures++;
}

static int args_of(const problem *pr, int nb, const double al[2], const double be[2], gg_arg *a)
{
  int n = 0;
  a[n++] = gg_arg_array(arr_a);
  a[n++] = gg_arg_array(arr_b);
  a[n++] = gg_arg_array(arr_c);
  if (pr->runtime) {
    const double v[4] = {al[0], al[1], be[0], be[1]};
    for (int i = 0; i < 4; i++) a[n++] = pr->f64 ? gg_arg_f64(v[i]) : gg_arg_f32((float)v[i]);
  }
  if (pr->batched) a[n++] = gg_arg_i64(nb);
  return n;
}

/* Classic launches: one block per tile per item, then a 2-block grid. */
static void classic(const problem *pr)
{
  static const int batches[] = {3, 1, 37};
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, pr->kernel, &k));
  for (int t = 0; t < 4; t++) {
    int nb = pr->batched ? batches[t % 3] : 1;
    double al[2] = {0.75 + t, t == 2 ? 0 : -0.5 * t}, be[2] = {0.5 * t - 0.25, t == 3 ? 0.25 : -1};
    if (t == 1) be[0] = be[1] = 0; /* beta 0: C is not read */
    if (!pr->runtime) memcpy(al, pr->alpha, sizeof al), memcpy(be, pr->beta, sizeof be);
    fill(pr, nb, be[0] == 0 && be[1] == 0);
    reference(pr, nb, al, be, 1);
    gg_arg a[10];
    int na = args_of(pr, nb, al, be, a);
    if (t == 3) CHECK_OK(gg_launch_grid(k, NULL, 2, a, na));
    else CHECK_OK(gg_launch(k, NULL, a, na));
    CHECK_OK(gg_device_sync(ctx));
    verify(pr, nb, t == 3 ? "classic, 2 blocks" : "classic");
  }
}

/* Frames with new inputs each time: the gemm command alone (s = 1), or
 * frame "fr" (c_cc, then C *= s). */
static void frames(const char *persistent, const char *command, const problem *pr, int is_frame,
                   int nframes)
{
  gg_session *s;
  CHECK_OK(gg_session_open(mod, persistent, NULL, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, command, &cmd));
  char where[128];
  snprintf(where, sizeof where, "%s, command %s, %d blocks", persistent, command,
           gg_session_blocks(s));
  for (int f = 0; f < nframes && failures < 5; f++) {
    int nb = 1 + f % 4;
    double al[2] = {0.25 * (f % 7) - 0.5, 0.5 - 0.25 * (f % 5)};
    double be[2] = {f % 3 == 0 ? 0 : 0.125 * (f % 11) - 0.5, f % 3 == 0 ? 0 : 0.25};
    double scale = is_frame ? 0.5 + 0.25 * (f % 4) : 1;
    fill(pr, nb, be[0] == 0 && be[1] == 0);
    reference(pr, nb, al, be, scale);
    gg_arg a[10];
    int na = args_of(pr, nb, al, be, a);
    if (is_frame) { /* frame params: A B C ar ai br bi s, then the extent b */
      a[na - 1] = pr->f64 ? gg_arg_f64(scale) : gg_arg_f32((float)scale);
      a[na++] = gg_arg_i64(nb);
    }
    CHECK_OK(gg_session_run(s, cmd, a, na, WAIT_NS));
    verify(pr, nb, where);
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

static const problem *find(const char *name)
{
  for (size_t i = 0; i < sizeof problems / sizeof *problems; i++)
    if (strcmp(problems[i].kernel, name) == 0) return &problems[i];
  abort();
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_check_mathdx(ctx);
  CHECK_OK(gg_module_load(ctx, &gg_module_cgemm_gpu, &mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof ha, &arr_a));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hb, &arr_b));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hc, &arr_c));
  for (size_t i = 0; i < sizeof problems / sizeof *problems; i++) classic(&problems[i]);
  const problem *cc = find("c_cc"), *ztc = find("z_tc");
  frames("p_one", "c_cc", cc, 0, 200);
  frames("p_many", "c_cc", cc, 0, 1000);
  frames("p_one", "fr", cc, 1, 200);
  frames("p_many", "fr", cc, 1, 2000);
  frames("p_one", "z_tc", ztc, 0, 200);
  frames("p_many", "z_tc", ztc, 0, 1000);
  frames("p_one", "frz", ztc, 1, 200);
  frames("p_many", "frz", ztc, 1, 1000);
  gg_array_free(arr_a);
  gg_array_free(arr_b);
  gg_array_free(arr_c);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "test_cgemm_gpu: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_cgemm_gpu: ok\n");
  return 0;
}
