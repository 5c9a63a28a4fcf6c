/*
 * test_tf32_gpu - gemm with math = "tf32" (tests/mathdx/tf32_gpu.lua) on
 * the GPU against a CPU reference in double:
 *   - that the tensor cores' TF32 multiply is what runs: A holding
 *     1 + 2^-15 everywhere and B ones, every C element must be exactly K
 *     (72 for t40, 64 for t64, whose whole panels cuBLASDx's copy stages, 100
 *     for t40s, split over 3 blocks).  TF32 keeps 10 bits of mantissa, so each 1 + 2^-15 is 1; an
 *     f32 product (math left out) gives K (1 + 2^-15), which f32 holds
 *     exactly;
 *   - random inputs in [-1, 1) (real, then complex with op_a "c", alpha
 *     and beta complex): |got - want| <= 2^-9 (sum_p |a_ip| |b_pj|) (the
 *     complex magnitudes scaled by |alpha|, plus |beta| |c_ij|): each
 *     input loses less than 2^-10 of itself, so a product less than 2^-9,
 *     and f32 accumulation adds K 2^-24 more at most.  A wrong op, a lost
 *     imaginary part or a tile off by one is off by far more.
 * Label gpu; exit 77 without a GPU or without MathDx.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "tf32_gpu.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
/* the real kernels: t40 (edge tiles, a K pad: panels through registers)
 * t64 (whole panels: staged by cuBLASDx's copy) and t40s (K in 3 ranges
 * on 3 blocks, the partials summed in f32) */
typedef struct real_kernel {
  const char *name;
  int m, n, k;
} real_kernel;
static const real_kernel reals[] = {{"t40", 40, 24, 72}, {"t64", 64, 48, 64}, {"t40s", 40, 24, 100}};
enum { RMAX = 64 * 72 };               /* elements of the largest real A, B or C */
enum { CM = 37, CN = 53, CK = 29 };    /* ct: A [K][M][2] (op_a c), B [K][N][2], C [M][N][2] */

static gg_context *ctx;
static gg_module *mod;
static gg_array *arr_a, *arr_b, *arr_c;
static int failures;

static float rnd(void) { return (float)((rand() / (RAND_MAX + 1.0)) * 2.0 - 1.0); }

static void run(const char *kernel)
{
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, kernel, &k));
  gg_stream *st;
  CHECK_OK(gg_stream_open(ctx, &st));
  const gg_arg a[3] = {gg_arg_array(arr_a), gg_arg_array(arr_b), gg_arg_array(arr_c)};
  CHECK_OK(gg_launch(k, st, a, 3));
  CHECK_OK(gg_stream_sync(st));
  gg_stream_free(st);
}

/* Every C element exactly K: the TF32 multiply ran. */
static void tf32_is_used(const real_kernel *r)
{
  const int M = r->m, N = r->n, K = r->k;
  float *a = gg_array_host(arr_a), *b = gg_array_host(arr_b), *c = gg_array_host(arr_c);
  for (int i = 0; i < M * K; i++) a[i] = 1.0f + 0x1p-15f;
  for (int i = 0; i < K * N; i++) b[i] = 1.0f;
  for (int i = 0; i < M * N; i++) c[i] = NAN;
  run(r->name);
  int bad = 0;
  for (int i = 0; i < M * N && bad < 3; i++)
    if (c[i] != (float)K) {
      fprintf(stderr, "%s: C[%d] = %.9g, want %d: (1 + 2^-15) x 1 summed %d times is %d in "
              "TF32 (%.9g in f32)\n", r->name, i, c[i], K, K, K, K * (1.0 + 0x1p-15));
      bad++;
    }
  failures += bad != 0;
  if (!bad) printf("%s: 1 + 2^-15 multiplied as TF32: every C element %d\n", r->name, K);
}

static void real_random(const real_kernel *r)
{
  const int M = r->m, N = r->n, K = r->k;
  float *a = gg_array_host(arr_a), *b = gg_array_host(arr_b), *c = gg_array_host(arr_c);
  for (int i = 0; i < M * K; i++) a[i] = rnd();
  for (int i = 0; i < K * N; i++) b[i] = rnd();
  run(r->name);
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double want = 0, mag = 0;
      for (int p = 0; p < K; p++) {
        want += (double)a[i * K + p] * b[p * N + j];
        mag += fabs((double)a[i * K + p] * b[p * N + j]);
      }
      const double err = fabs(c[i * N + j] - want);
      if (err / mag > worst) worst = err / mag;
      if (!(err <= 0x1p-9 * mag) && bad++ < 3)
        fprintf(stderr, "%s: C[%d][%d] = %.9g, want %.9g (error %.3g of %.3g)\n", r->name, i,
                j, c[i * N + j], want, err, mag);
    }
  failures += bad != 0;
  if (!bad)
    printf("%s: random inputs, worst error %.3g of the terms' magnitude (bound 2^-9)\n", r->name,
           worst);
}

/* C = alpha A^H B + beta C, alpha 0.5 - i, beta 1 + 0.25 i (tf32_gpu.lua) */
static void complex_random(void)
{
  float *a = gg_array_host(arr_a), *b = gg_array_host(arr_b), *c = gg_array_host(arr_c);
  static float c0[CM * CN * 2];
  for (int i = 0; i < CK * CM * 2; i++) a[i] = rnd();
  for (int i = 0; i < CK * CN * 2; i++) b[i] = rnd();
  for (int i = 0; i < CM * CN * 2; i++) c[i] = c0[i] = rnd();
  run("ct");
  const double ar = 0.5, ai = -1, br = 1, bi = 0.25;
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < CM; i++)
    for (int j = 0; j < CN; j++) {
      double sr = 0, si = 0, mag = 0;
      for (int p = 0; p < CK; p++) {
        const double xr = a[(p * CM + i) * 2], xi = -a[(p * CM + i) * 2 + 1]; /* conj(A)^T */
        const double yr = b[(p * CN + j) * 2], yi = b[(p * CN + j) * 2 + 1];
        sr += xr * yr - xi * yi;
        si += xr * yi + xi * yr;
        mag += hypot(xr, xi) * hypot(yr, yi);
      }
      const double cr = c0[(i * CN + j) * 2], ci = c0[(i * CN + j) * 2 + 1];
      const double wr = ar * sr - ai * si + br * cr - bi * ci;
      const double wi = ar * si + ai * sr + br * ci + bi * cr;
      const double m = 2 * hypot(ar, ai) * mag + hypot(br, bi) * hypot(cr, ci) * 0x1p-14;
      const double err = hypot(c[(i * CN + j) * 2] - wr, c[(i * CN + j) * 2 + 1] - wi);
      if (err / m > worst) worst = err / m;
      if (!(err <= 0x1p-9 * m) && bad++ < 3)
        fprintf(stderr, "ct: C[%d][%d] = %.9g%+.9gi, want %.9g%+.9gi\n", i, j,
                c[(i * CN + j) * 2], c[(i * CN + j) * 2 + 1], wr, wi);
    }
  failures += bad != 0;
  if (!bad) printf("ct: random complex inputs, worst error %.3g of the bound's magnitude\n", worst);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_check_mathdx(ctx);
  CHECK_OK(gg_module_load(ctx, &gg_module_tf32_gpu, &mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, CK * CN * 2 * 4 + RMAX * 4, &arr_a));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, CK * CN * 2 * 4 + RMAX * 4, &arr_b));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, CM * CN * 2 * 4 + RMAX * 4, &arr_c));
  srand(7);
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
    tf32_is_used(&reals[i]);
    real_random(&reals[i]);
  }
  complex_random();
  gg_array_free(arr_a);
  gg_array_free(arr_b);
  gg_array_free(arr_c);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "test_tf32_gpu: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_tf32_gpu: ok\n");
  return 0;
}
