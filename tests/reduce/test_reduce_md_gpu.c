/*
 * test_reduce_md_gpu.c - every kernel of reduce_md.lua against a CPU
 * reference, through `gpugen emit` and the runtime: 2-D ranges (y^T A x,
 * shapes 1x1 .. 1000x1003), 3-D ranges on a left-layout view (5x7x9 ..
 * 101x33x31, and the static 5x7x9), values with their own operators (min,
 * max and sum of f32 in one pass) and the packed min-index key (ties
 * everywhere: the smallest index wins), at sizes 1, 31, 1000, 4097,
 * 1000003.  Integers compare exactly; the f32 sum within 1e-5 of sum|x|.
 * Exits 77 without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "reduce_md.h"
#include "../gg_check.h"

#define MAXN 1100000LL /* elements the buffers hold: the largest case */
static int failures, checks;
static gg_context *ctx;
static gg_array *d_a, *d_b, *d_c, *d_out;

static void die(const char *what, gg_status s)
{
  fprintf(stderr, "FAIL %s: %s: %s\n", what, gg_strerror(s), gg_error_detail());
  exit(1);
}

static uint64_t rng = 88172645463325252ull;
static long long next_int(long long lo, long long hi)
{
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return lo + (long long)(rng % (uint64_t)(hi - lo + 1));
}

static void put(gg_array *d, const void *h, size_t bytes)
{
  gg_status st = gg_copy_from_host(d, 0, h, bytes, NULL);
  if (st) die("copy", st);
}

static gg_module *mod;

/* Launch kernel `name` with n args, copy `bytes` of the output back. */
static void run(const char *name, gg_arg *a, int n, void *out, size_t bytes)
{
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, name, &k);
  if (st) die(name, st);
  if ((st = gg_launch(k, NULL, a, n))) die(name, st);
  if ((st = gg_copy_to_host(out, d_out, 0, bytes, NULL))) die("copy", st);
}

static void fail(const char *name, const char *shape, double got, double want)
{
  failures++;
  printf("FAIL %s %s: got %.17g want %.17g\n", name, shape, got, want);
}

static long long *ha, *hb, *hc;
static float *hf;

static void check_ytax(const char *s)
{
  static const long long shapes[][2] = { { 1, 1 }, { 33, 77 }, { 77, 33 }, { 1000, 31 }, { 1, 4097 },
                                         { 1000, 1003 } };
  char name[64];
  snprintf(name, sizeof name, "ytax_%s", s);
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    long long m = shapes[si][0], n = shapes[si][1], want = 0, got;
    for (long long i = 0; i < m; i++) ha[i] = next_int(-9, 9);
    for (long long i = 0; i < m * n; i++) hb[i] = next_int(-9, 9);
    for (long long j = 0; j < n; j++) hc[j] = next_int(-9, 9);
    for (long long i = 0; i < m; i++)
      for (long long j = 0; j < n; j++) want += ha[i] * hb[i * n + j] * hc[j];
    put(d_a, ha, (size_t)m * 8);
    put(d_b, hb, (size_t)(m * n) * 8);
    put(d_c, hc, (size_t)n * 8);
    gg_arg a[6] = { gg_arg_array(d_a), gg_arg_array(d_b), gg_arg_array(d_c), gg_arg_array(d_out),
                    gg_arg_i64(m), gg_arg_i64(n) };
    run(name, a, 6, &got, 8);
    checks++;
    char shape[64];
    snprintf(shape, sizeof shape, "%lldx%lld", m, n);
    if (got != want) fail(name, shape, (double)got, (double)want);
  }
}

/* T layout left: T(i, j, k) at i + (j + k * b) * a. */
static long long vol_ref(long long na, long long nb, long long nc, int left)
{
  long long want = 0;
  for (long long i = 0; i < na; i++)
    for (long long j = 0; j < nb; j++)
      for (long long k = 0; k < nc; k++)
        want += hb[left ? i + (j + k * nb) * na : (i * nb + j) * nc + k] * (1 + i + 3 * j + 7 * k);
  return want;
}

static void check_vol(const char *s)
{
  static const long long shapes[][3] = { { 1, 1, 1 }, { 5, 7, 9 }, { 13, 1, 40 }, { 101, 33, 31 } };
  char name[64];
  snprintf(name, sizeof name, "vol_%s", s);
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    long long na = shapes[si][0], nb = shapes[si][1], nc = shapes[si][2], got;
    for (long long i = 0; i < na * nb * nc; i++) hb[i] = next_int(-9, 9);
    put(d_b, hb, (size_t)(na * nb * nc) * 8);
    gg_arg a[5] = { gg_arg_array(d_b), gg_arg_array(d_out), gg_arg_i64(na), gg_arg_i64(nb), gg_arg_i64(nc) };
    run(name, a, 5, &got, 8);
    checks++;
    char shape[64];
    snprintf(shape, sizeof shape, "%lldx%lldx%lld", na, nb, nc);
    long long want = vol_ref(na, nb, nc, 1);
    if (got != want) fail(name, shape, (double)got, (double)want);
  }
}

static const long long sizes[] = { 1, 31, 1000, 4097, 1000003 };

static void check_minmax(const char *s)
{
  char name[64];
  snprintf(name, sizeof name, "minmax_%s", s);
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    long long n = sizes[si];
    double sum = 0, mag = 0;
    float mn = INFINITY, mx = -INFINITY, got[3];
    for (long long i = 0; i < n; i++) {
      hf[i] = (float)next_int(-1000000, 1000000) * 1e-3f;
      sum += hf[i];
      mag += fabs(hf[i]);
      mn = hf[i] < mn ? hf[i] : mn;
      mx = hf[i] > mx ? hf[i] : mx;
    }
    put(d_a, hf, (size_t)n * 4);
    gg_arg a[3] = { gg_arg_array(d_a), gg_arg_array(d_out), gg_arg_i64(n) };
    run(name, a, 3, got, 12);
    checks++;
    char shape[64];
    snprintf(shape, sizeof shape, "n=%lld", n);
    if (got[0] != mn) fail(name, shape, got[0], mn);
    if (got[1] != mx) fail(name, shape, got[1], mx);
    if (!(fabs(got[2] - sum) <= 1e-5 * mag)) fail(name, shape, got[2], sum);
  }
}

static void check_minloc(const char *s)
{
  char name[64];
  snprintf(name, sizeof name, "minloc_%s", s);
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    long long n = sizes[si], at = 0;
    uint64_t got;
    for (long long i = 0; i < n; i++) {
      hf[i] = (float)next_int(-3, 3) * 0.5f; /* few values: ties everywhere */
      if (hf[i] < hf[at]) at = i;
    }
    put(d_a, hf, (size_t)n * 4);
    gg_arg a[3] = { gg_arg_array(d_a), gg_arg_array(d_out), gg_arg_i64(n) };
    run(name, a, 3, &got, 8);
    checks++;
    char shape[64];
    snprintf(shape, sizeof shape, "n=%lld (index)", n);
    if ((long long)(got & 0xffffffffu) != at) fail(name, shape, (double)(got & 0xffffffffu), (double)at);
    /* the value back from its key: undo the order-preserving flip */
    uint32_t u = (uint32_t)(got >> 32);
    u = (u & 0x80000000u) ? u ^ 0x80000000u : ~u;
    float v;
    memcpy(&v, &u, 4);
    snprintf(shape, sizeof shape, "n=%lld (value)", n);
    if (v != hf[at]) fail(name, shape, v, hf[at]);
  }
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_status st;
  if ((st = gg_module_load(ctx, &gg_module_reduce_md, &mod))) die("module load", st);
  gg_array **arrs[] = { &d_a, &d_b, &d_c, &d_out };
  for (int i = 0; i < 4; i++)
    if ((st = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)MAXN * 8, arrs[i]))) die("alloc", st);
  ha = malloc((size_t)MAXN * 8);
  hb = malloc((size_t)MAXN * 8);
  hc = malloc((size_t)MAXN * 8);
  hf = malloc((size_t)MAXN * 4);
  static const char *const strategies[] = { "global_atomic", "shared_atomic", "warp_shuffle", "shared_tree",
                                            "cg_tile", "grid_sync", "deterministic", "auto" };
  for (int s = 0; s < 8; s++) {
    int before = failures;
    check_ytax(strategies[s]);
    check_vol(strategies[s]);
    if (s >= 2) check_minmax(strategies[s]);
    check_minloc(strategies[s]);
    printf("%s %s\n", failures > before ? "  FAILED" : "ok", strategies[s]);
    fflush(stdout);
  }
  /* the static 5x7x9 range, row-major */
  long long got;
  for (long long i = 0; i < 5 * 7 * 9; i++) hb[i] = next_int(-9, 9);
  put(d_b, hb, 5 * 7 * 9 * 8);
  gg_arg a[2] = { gg_arg_array(d_b), gg_arg_array(d_out) };
  run("vol_static", a, 2, &got, 8);
  checks++;
  if (got != vol_ref(5, 7, 9, 0)) fail("vol_static", "5x7x9", (double)got, (double)vol_ref(5, 7, 9, 0));
  printf("%d checks, %d failures (device %s)\n", checks, failures, gg_context_device_name(ctx));
  for (int i = 0; i < 4; i++) gg_array_free(*arrs[i]);
  gg_module_free(mod);
  gg_context_free(ctx);
  free(ha); free(hb); free(hc); free(hf);
  return failures ? 1 : 0;
}
