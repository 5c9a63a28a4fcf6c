/*
 * test_gemm_post_gpu - a gemm's post statements and contribute() into a
 * result (tests/mathdx/gemm_post_gpu.lua) on the GPU against a CPU
 * reference in double:
 *   - relu (f32 45 x 37 x 29): C after a leaky ReLU, its maximum and the
 *     sum of its diagonal (op { "max", "sum" }: two values, row i and
 *     column j);
 *   - peak (c32, batched, W^H X): Y and the largest |Y|^2 over every item;
 *   - zitem (c64, batched): the batch item added to each real part, the
 *     imaginary parts negated, the sum of the new real parts;
 *   - hpost (f16 inputs, f32 C): C halved, no reduction;
 * as classic launches (their own grid, then 2 blocks striding over every
 * tile), as commands of a one_block and a many_blocks persistent kernel,
 * and peak as the last stage of frame fr (after W *= s), whose result
 * (the maximum) comes back in the acknowledgement.  Inputs are quarters in
 * [-1, 1]: every product, sum and power here is exact in f32, so the
 * tolerance (1e-6 of the terms' magnitude) only allows for the order of
 * the additions.  A post statement not run, run twice, or a contribution
 * lost or carried over from an earlier frame is off by far more; each
 * frame draws new inputs, so a maximum left from the frame before shows.
 * Label gpu; exit 77 without a GPU or without MathDx.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_post_gpu.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define TOL 1e-6
#define MAXN (1 << 16) /* elements (reals) of the largest view */

static gg_context *ctx;
static gg_module *mod;
static gg_array *arr_a, *arr_b, *arr_c, *arr_r;
static double ha[MAXN], hb[MAXN], want_c[MAXN], want_r[2], mag_r[2];
static int failures;

static uint32_t rng = 4242;
static double quarter(void) /* in [-1, 1], exact in f16, f32 and f64 */
{
  rng = rng * 1664525u + 1013904223u;
  return (double)((int)(rng >> 24) % 9 - 4) / 4.0;
}

/* a quarter's f16 bits: 0, or sign, exponent and the one fraction bit a
 * quarter of magnitude 0.25 .. 1 has */
static uint16_t half_bits(double v)
{
  if (v == 0) return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  double m = fabs(v);
  int e = 0;
  while (m < 1) m *= 2, e--;
  return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | (uint16_t)((m - 1) * 1024));
}

typedef enum { F16, F32, F64 } prec;

static void put(gg_array *arr, prec p, const double *v, size_t n)
{
  void *h = gg_array_host(arr);
  for (size_t i = 0; i < n; i++) {
    if (p == F16) ((uint16_t *)h)[i] = half_bits(v[i]);
    else if (p == F32) ((float *)h)[i] = (float)v[i];
    else ((double *)h)[i] = v[i];
  }
}

static double get(gg_array *arr, prec p, size_t i)
{
  const void *h = gg_array_host(arr);
  return p == F32 ? ((const float *)h)[i] : ((const double *)h)[i];
}

static void fill(double *v, size_t n)
{
  for (size_t i = 0; i < n; i++) v[i] = quarter();
}

static void expect(const char *where, const char *what, size_t i, double got, double want,
                   double mag)
{
  if (fabs(got - want) <= TOL * (mag + 1)) return;
  if (failures < 10)
    fprintf(stderr, "%s: %s[%zu] = %.9g, want %.9g\n", where, what, i, got, want);
  failures++;
}

/* ---- the references ---- */

/* relu: C = A B (45 x 29, 29 x 37), negative elements times 0.25;
   r0 = max C, r1 = sum of C(i, i) */
#define RM 45
#define RN 37
#define RK 29
static void ref_relu(void)
{
  want_r[0] = -INFINITY, want_r[1] = 0, mag_r[0] = mag_r[1] = 0;
  for (int i = 0; i < RM; i++)
    for (int j = 0; j < RN; j++) {
      double s = 0, m = 0;
      for (int p = 0; p < RK; p++) {
        s += ha[i * RK + p] * hb[p * RN + j];
        m += fabs(ha[i * RK + p] * hb[p * RN + j]);
      }
      if (s < 0) s *= 0.25;
      want_c[i * RN + j] = s;
      if (s > want_r[0]) want_r[0] = s;
      if (i == j) want_r[1] += s, mag_r[1] += m;
      mag_r[0] = fmax(mag_r[0], m);
    }
}

/* peak: per item, Y = (s W)^H X, W 19 x 24 and X 19 x 53 complex;
   r0 = max |Y|^2 */
#define PS 19
#define PB 24
#define PL 53
static void ref_peak(int nb, double s)
{
  want_r[0] = 0, mag_r[0] = 0;
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < PB; i++)
      for (int j = 0; j < PL; j++) {
        double re = 0, im = 0, m = 0;
        for (int p = 0; p < PS; p++) {
          const double *w = ha + 2 * ((size_t)b * PS * PB + p * PB + i);
          const double *x = hb + 2 * ((size_t)b * PS * PL + p * PL + j);
          const double wr = s * w[0], wi = -s * w[1]; /* conj */
          re += wr * x[0] - wi * x[1];
          im += wr * x[1] + wi * x[0];
          m += hypot(wr, wi) * hypot(x[0], x[1]);
        }
        size_t c = (size_t)b * PB * PL + i * PL + j;
        want_c[2 * c] = re, want_c[2 * c + 1] = im;
        want_r[0] = fmax(want_r[0], re * re + im * im);
        mag_r[0] = fmax(mag_r[0], m * m);
      }
}

/* zitem: per item b, C = A B (16 x 12, 12 x 20 complex), then re + b,
   -im; r0 = the sum of the new real parts */
#define ZM 16
#define ZN 20
#define ZK 12
static void ref_zitem(int nb)
{
  want_r[0] = 0, mag_r[0] = 0;
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < ZM; i++)
      for (int j = 0; j < ZN; j++) {
        double re = 0, im = 0, m = 0;
        for (int p = 0; p < ZK; p++) {
          const double *x = ha + 2 * ((size_t)b * ZM * ZK + i * ZK + p);
          const double *y = hb + 2 * ((size_t)b * ZK * ZN + p * ZN + j);
          re += x[0] * y[0] - x[1] * y[1];
          im += x[0] * y[1] + x[1] * y[0];
          m += hypot(x[0], x[1]) * hypot(y[0], y[1]);
        }
        size_t c = (size_t)b * ZM * ZN + i * ZN + j;
        want_c[2 * c] = re + b, want_c[2 * c + 1] = -im;
        want_r[0] += re + b, mag_r[0] += m + b;
      }
}

/* hpost: C = A B / 2 (40 x 32, 32 x 24) */
#define HM 40
#define HN 24
#define HK 32
static void ref_hpost(void)
{
  for (int i = 0; i < HM; i++)
    for (int j = 0; j < HN; j++) {
      double s = 0;
      for (int p = 0; p < HK; p++) s += ha[i * HK + p] * hb[p * HN + j];
      want_c[i * HN + j] = s / 2;
    }
}

/* ---- one run of a kernel or command, checked ---- */

typedef struct job {
  const char *name; /* kernel (or frame) */
  prec in, out;
  size_t na, nb, nc; /* reals of A, B, C for the items */
  int nres;          /* values in arr_r (0: none) */
  int items;         /* the batch extent b (0: not batched) */
  double s;          /* frame fr's scale (0: not the frame) */
} job;

/* New inputs and the reference for job j. */
static void prepare(const job *j)
{
  fill(ha, j->na);
  fill(hb, j->nb);
  put(arr_a, j->in, ha, j->na);
  put(arr_b, j->in, hb, j->nb);
  if (!strcmp(j->name, "relu")) ref_relu();
  else if (!strcmp(j->name, "peak") || !strcmp(j->name, "fr")) ref_peak(j->items, j->s ? j->s : 1);
  else if (!strcmp(j->name, "zitem")) ref_zitem(j->items);
  else ref_hpost();
  /* NaN where the kernel must write: an element it skips shows */
  memset(gg_array_host(arr_c), 0xff, j->nc * (j->out == F64 ? 8 : 4));
  memset(gg_array_host(arr_r), 0xff, 16);
}

static int args(const job *j, gg_arg *a)
{
  int n = 0;
  a[n++] = gg_arg_array(arr_a);
  a[n++] = gg_arg_array(arr_b);
  a[n++] = gg_arg_array(arr_c);
  if (j->nres) a[n++] = gg_arg_array(arr_r);
  if (j->s) a[n++] = gg_arg_f32((float)j->s);
  if (j->items) a[n++] = gg_arg_i64(j->items);
  return n;
}

/* C and the results against the reference; result: the frame's (the
   acknowledgement's), else NULL */
static void check(const job *j, const char *where, const float *result)
{
  for (size_t i = 0; i < j->nc; i++)
    expect(where, "C", i, get(arr_c, j->out, i), want_c[i], fabs(want_c[i]) * 64);
  for (int r = 0; r < j->nres; r++)
    expect(where, "result", (size_t)r, get(arr_r, j->out, (size_t)r), want_r[r], mag_r[r]);
  if (result) expect(where, "acknowledged result", 0, *result, want_r[0], mag_r[0]);
}

static job make(const char *name, int items, double s)
{
  job j = {name, F32, F32, 0, 0, 0, 1, items, s};
  if (!strcmp(name, "relu")) j.na = RM * RK, j.nb = RK * RN, j.nc = RM * RN, j.nres = 2;
  if (!strcmp(name, "peak") || !strcmp(name, "fr"))
    j.na = 2u * items * PS * PB, j.nb = 2u * items * PS * PL, j.nc = 2u * items * PB * PL;
  if (!strcmp(name, "zitem"))
    j.in = j.out = F64, j.na = 2u * items * ZM * ZK, j.nb = 2u * items * ZK * ZN,
    j.nc = 2u * items * ZM * ZN;
  if (!strcmp(name, "hpost")) j.in = F16, j.na = HM * HK, j.nb = HK * HN, j.nc = HM * HN, j.nres = 0;
  return j;
}

static void classic(const char *name, int items)
{
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, name, &k));
  for (int grid = 0; grid < 2; grid++) {
    const job j = make(name, items, 0);
    prepare(&j);
    gg_arg a[8];
    const int n = args(&j, a);
    if (grid) CHECK_OK(gg_launch_grid(k, NULL, 2, a, n));
    else CHECK_OK(gg_launch(k, NULL, a, n));
    CHECK_OK(gg_device_sync(ctx));
    char where[96];
    snprintf(where, sizeof where, "%s, classic%s, %d items", name, grid ? " on 2 blocks" : "",
             items);
    check(&j, where, NULL);
  }
}

/* frames of command `name` on persistent kernel p, new inputs each */
static void frames(const char *p, const char *name, int nframes)
{
  gg_session *s;
  int cmd;
  CHECK_OK(gg_session_open(mod, p, NULL, &s));
  CHECK_OK(gg_session_command(s, name, &cmd));
  char where[128];
  snprintf(where, sizeof where, "%s on %s (%d blocks)", name, p, gg_session_blocks(s));
  for (int f = 0; f < nframes && failures < 10; f++) {
    const int items = 1 + f % 5;
    const job j = make(name, strcmp(name, "relu") ? items : 0, !strcmp(name, "fr") ? 0.25 * (1 + f % 6) : 0);
    prepare(&j);
    gg_arg a[8];
    const int n = args(&j, a);
    CHECK_OK(gg_session_run(s, cmd, a, n, WAIT_NS));
    float ack;
    const int has_result = !strcmp(name, "fr");
    if (has_result) CHECK_OK(gg_session_result(s, &ack, sizeof ack));
    check(&j, where, has_result ? &ack : NULL);
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_check_mathdx(ctx);
  CHECK_OK(gg_module_load(ctx, &gg_module_gemm_post_gpu, &mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, MAXN * 8, &arr_a));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, MAXN * 8, &arr_b));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, MAXN * 8, &arr_c));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 16, &arr_r));
  classic("relu", 0);
  classic("hpost", 0);
  for (int items = 1; items <= 5; items += 2) {
    classic("peak", items);
    classic("zitem", items);
  }
  frames("p_one", "relu", 100);
  frames("p_many", "relu", 300);
  frames("p_one", "peak", 100);
  frames("p_many", "peak", 300);
  frames("p_many", "zitem", 300);
  frames("p_one", "fr", 100);
  frames("p_many", "fr", 1000);
  gg_array_free(arr_a);
  gg_array_free(arr_b);
  gg_array_free(arr_c);
  gg_array_free(arr_r);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "test_gemm_post_gpu: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_gemm_post_gpu: ok\n");
  return 0;
}
