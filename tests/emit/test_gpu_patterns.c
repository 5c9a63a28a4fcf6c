/*
 * test_gpu_patterns.c - the for and team templates run on a GPU and agree
 * with a CPU reference (tests/emit/gpu_patterns.lua): rank-3 row-major,
 * rank-2 column-major with vector 4 x items 8 and `return`, explicit
 * strides, teams of 96 threads with scratch and team_sum/min/max over a
 * run-time league, and a cooperative for.  Sizes are not powers of two.
 * Exits 77 (skipped) without a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gpu_patterns.h"
#include "../gg_check.h"

static int fails;
static gg_context *ctx;


static gg_array *upload(const void *host, size_t bytes)
{
  gg_array *a;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &a));
  CHECK_OK(gg_copy_from_host(a, 0, host, bytes, NULL));
  return a;
}

static void expect(int ok, const char *what, long long at)
{
  if (!ok && fails++ < 10) printf("FAIL %s at %lld\n", what, at);
}

static void test_fill3(gg_module *mod)
{
  const long long a = 5, b = 7, c = 13, n = a * b * c;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *r = malloc(n * sizeof *r);
  for (long long t = 0; t < n; t++) x[t] = (double)(t % 17), y[t] = 0.5 * (double)t;
  gg_array *X = upload(x, n * sizeof *x), *Y = upload(y, n * sizeof *y);
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, "fill3", &k));
  CHECK_OK(gg_gpu_patterns_launch_fill3(k, NULL, 2.0, X, Y, a, b, c));
  CHECK_OK(gg_copy_to_host(r, Y, 0, n * sizeof *r, NULL));
  for (long long i = 0; i < a; i++)
    for (long long j = 0; j < b; j++)
      for (long long l = 0; l < c; l++) {
        long long t = (i * b + j) * c + l;
        expect(r[t] == y[t] + 2.0 * x[t] + i * 10000.0 + j * 100.0 + l, "fill3", t);
      }
  gg_array_free(X);
  gg_array_free(Y);
  free(x), free(y), free(r);
}

static void test_left2(gg_module *mod)
{
  const long long n = 37, m = 29;
  int *u = malloc(n * m * sizeof *u);
  for (long long t = 0; t < n * m; t++) u[t] = -7;
  gg_array *U = upload(u, n * m * sizeof *u);
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, "left2", &k));
  CHECK_OK(gg_gpu_patterns_launch_left2(k, NULL, U, n, m));
  CHECK_OK(gg_copy_to_host(u, U, 0, n * m * sizeof *u, NULL));
  for (long long j = 0; j < m; j++)
    for (long long i = 0; i < n; i++)
      expect(u[i + j * n] == (i == 3 ? -7 : (int)(i * 1000 + j)), "left2", i + j * n);
  gg_array_free(U);
  free(u);
}

static void test_strided(gg_module *mod)
{
  /* column-major with a padded leading dimension of n + 3 */
  const long long n = 19, m = 23, ld = n + 3, total = ld * m;
  float *s = malloc(total * sizeof *s);
  for (long long t = 0; t < total; t++) s[t] = 1e9f;
  gg_array *S = upload(s, total * sizeof *s);
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, "strided", &k));
  CHECK_OK(gg_gpu_patterns_launch_strided(k, NULL, S, n, m, 1, ld));
  CHECK_OK(gg_copy_to_host(s, S, 0, total * sizeof *s, NULL));
  for (long long j = 0; j < m; j++)
    for (long long i = 0; i < ld; i++)
      expect(s[i + j * ld] == (i < n ? (float)(i - 2 * j) : 1e9f), "strided", i + j * ld);
  gg_array_free(S);
  free(s);
}

static void test_rowstats(gg_module *mod)
{
  const long long rows = 77, w = 96;
  double *x = malloc(rows * w * sizeof *x), *o = malloc(rows * 3 * sizeof *o);
  for (long long t = 0; t < rows * w; t++) x[t] = (double)((t * 37) % 101) - 50.0;
  gg_array *X = upload(x, rows * w * sizeof *x);
  gg_array *O;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, rows * 3 * sizeof *o, &O));
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, "rowstats", &k));
  CHECK_OK(gg_gpu_patterns_launch_rowstats(k, NULL, X, O, rows));
  CHECK_OK(gg_copy_to_host(o, O, 0, rows * 3 * sizeof *o, NULL));
  for (long long r = 0; r < rows; r++) {
    double s = 0, lo = INFINITY, hi = -INFINITY;
    for (long long t = 0; t < w; t++) {
      double v = x[r * w + t];
      s += v;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    /* integers in doubles: the sum is exact in any order */
    expect(o[r * 3] == s && o[r * 3 + 1] == lo && o[r * 3 + 2] == hi, "rowstats", r);
  }
  gg_array_free(X);
  gg_array_free(O);
  free(x), free(o);
}

static void test_coop(gg_module *mod)
{
  const long long n = 100003;
  uint64_t *q = malloc(n * sizeof *q), *r = malloc(n * sizeof *r);
  for (long long t = 0; t < n; t++) q[t] = (uint64_t)t * 977u;
  gg_array *Q = upload(q, n * sizeof *q);
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, "coop_scale", &k));
  gg_status st = gg_gpu_patterns_launch_coop_scale(k, NULL, Q, n);
  if (st == GG_ERR_UNSUPPORTED) {
    printf("note: no cooperative launch on this device; coop_scale not run\n");
  } else {
    CHECK_OK(st);
    CHECK_OK(gg_copy_to_host(r, Q, 0, n * sizeof *r, NULL));
    for (long long t = 0; t < n; t++) expect(r[t] == q[t] * 3u + 1u, "coop_scale", t);
  }
  gg_array_free(Q);
  free(q), free(r);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  printf("device: %s (%s)\n", gg_context_device_name(ctx), gg_context_arch(ctx));
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_gpu_patterns, &mod));
  test_fill3(mod);
  test_left2(mod);
  test_strided(mod);
  test_rowstats(mod);
  test_coop(mod);
  CHECK_OK(gg_device_sync(ctx));
  gg_module_free(mod);
  gg_context_free(ctx);
  printf("%s\n", fails ? "FAILED" : "ok");
  return fails ? 1 : 0;
}
