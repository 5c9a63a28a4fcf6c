/*
 * test_examples.c - every example of examples/ that is not persistent,
 * emitted at build time and run on the GPU through the runtime, against
 * a CPU reference.  typed.lua holds the same workloads in the other
 * element types they support (f64, i32, i64, u32).
 *
 *   test_examples [GROUP...]    run these groups (default: all); exit 77
 *                               when there is no CUDA/HIP library or device
 *
 * Sizes: run-time extents take 1, 31, 1000, 1024, 4097, 1<<20 and
 * 1000003; static-extent examples run at their own size.  Inputs are
 * pseudo-random and signed.  References are computed in long double.
 *
 * Tolerances (u = unit roundoff of the element type, eps = 2u):
 *   integers                 exact
 *   saxpy, stencil           eps * sum|terms|: a*x+y is rounded once (fma)
 *                            or twice, both well inside that
 *   matmul (K terms)         K * eps * sum_k |A(i,k) B(k,j)|, the classic
 *                            worst-case bound of a K-term dot product
 *   tile sums (16 terms)     16 * eps * sum|x| over the tile, same bound
 *   sums and scans           1e-5 (f32), 1e-13 (f64) times sum|x|: the
 *                            worst-case bound (n u) is too loose to catch
 *                            anything at n = 1e6, so this is a stated
 *                            budget, about 170 eps, which tree and atomic
 *                            orders both stay far inside.
 *   Sums and scans also run on "dyadic" inputs (multiples of 1/4, |x| <=
 *   1.75): every partial sum is then exact in f32 for n <= 1000003, so
 *   any order of summation must give the exact answer; a lost or doubled
 *   element cannot hide inside a tolerance.
 * Outputs are allocated with guard elements after them, pre-filled with a
 * 0xA5 pattern: the guards must be untouched, and an output the kernel
 * must overwrite starts as garbage, not zero.  Reductions and scans run
 * twice on the same kernel: the second launch checks that the workspace
 * was left clean.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gg.h"

#include "coop_reduce.h"
#include "inc32k.h"
#include "matmul128.h"
#include "matmul32.h"
#include "matmul64.h"
#include "saxpy.h"
#include "scan_inclusive.h"
#include "stencil2d_left.h"
#include "strategies.h"
#include "sum1k.h"
#include "sum32k.h"
#include "tile_reduce16.h"
#include "typed.h"
#include "../gg_check.h"

static const int64_t sizes[] = {1, 31, 1000, 1024, 4097, 1 << 20, 1000003};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
#define GUARD 7        /* elements after each output that must stay untouched */
#define GUARD_BYTE 0xA5

typedef struct run {
  gg_context *ctx;
  int failures, checks;
} run;

/* ---- element types ---- */

static size_t tsize(gg_dtype t) { return t == GG_I64 || t == GG_U64 || t == GG_F64 ? 8 : 4; }
static int tfloat(gg_dtype t) { return t == GG_F32 || t == GG_F64; }
static const char *tname(gg_dtype t)
{
  static const char *const names[] = {"i32", "u32", "i64", "u64", "f32", "f64"};
  return t < 6 ? names[t] : "?";
}
static double teps(gg_dtype t) { return t == GG_F32 ? FLT_EPSILON : t == GG_F64 ? DBL_EPSILON : 0; }
/* The stated budget for sums and scans, relative to sum|x|. */
static double tsumtol(gg_dtype t) { return t == GG_F32 ? 1e-5 : t == GG_F64 ? 1e-13 : 0; }

static long double tget(gg_dtype t, const void *p, size_t i)
{
  switch (t) {
  case GG_I32: return ((const int32_t *)p)[i];
  case GG_U32: return ((const uint32_t *)p)[i];
  case GG_I64: return ((const int64_t *)p)[i];
  case GG_U64: return ((const uint64_t *)p)[i];
  case GG_F32: return ((const float *)p)[i];
  default: return ((const double *)p)[i];
  }
}

static void tset(gg_dtype t, void *p, size_t i, long double v)
{
  switch (t) {
  case GG_I32: ((int32_t *)p)[i] = (int32_t)v; break;
  /* unsigned: a negative v wraps, through a signed conversion (defined) */
  case GG_U32: ((uint32_t *)p)[i] = v < 0 ? (uint32_t)(int64_t)v : (uint32_t)v; break;
  case GG_I64: ((int64_t *)p)[i] = (int64_t)v; break;
  case GG_U64: ((uint64_t *)p)[i] = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v; break;
  case GG_F32: ((float *)p)[i] = (float)v; break;
  default: ((double *)p)[i] = (double)v; break;
  }
}

static gg_arg targ(gg_dtype t, long double v)
{
  switch (t) {
  case GG_I32: return gg_arg_i32((int32_t)v);
  case GG_U32: return gg_arg_u32((uint32_t)v);
  case GG_I64: return gg_arg_i64((int64_t)v);
  case GG_U64: return gg_arg_u64((uint64_t)v);
  case GG_F32: return gg_arg_f32((float)v);
  default: return gg_arg_f64((double)v);
  }
}

/* ---- inputs ---- */

typedef enum fill_mode {
  FILL_MIXED,    /* floats uniform in [-1, 1), integers in [-1000, 1000] */
  FILL_DYADIC,   /* floats k/4 with k in [-7, 7]: exact partial sums; integers as MIXED */
  FILL_NEGATIVE  /* floats in [-2, -1), integers in [-2000, -1001]: checks max's identity */
} fill_mode;

static const char *const fill_names[] = {"mixed", "dyadic", "negative"};

static uint64_t mix(uint64_t x) /* splitmix64: a value per (seed, index) */
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static void fill(gg_dtype t, void *p, size_t n, uint64_t seed, fill_mode mode)
{
  for (size_t i = 0; i < n; i++) {
    uint64_t h = mix(seed * 0x100000001b3ull + i);
    long double v;
    if (!tfloat(t)) v = (long double)(h % 2001) - 1000 - (mode == FILL_NEGATIVE ? 1001 : 0);
    else if (mode == FILL_DYADIC) v = ((long double)(h % 15) - 7) / 4;
    else v = (long double)(h >> 11) / 9007199254740992.0L * 2 - 1 - (mode == FILL_NEGATIVE ? 1 : 0);
    tset(t, p, i, v);
  }
}

static void *xmalloc(size_t bytes)
{
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static void *xcalloc(size_t n, size_t size)
{
  void *p = xmalloc(n * size);
  memset(p, 0, n * size);
  return p;
}

/* ---- reporting ---- */

static void fail(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void fail(run *r, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("FAIL ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  r->failures++;
}

static int ok(run *r, gg_status st, const char *what, const char *label)
{
  if (st == GG_OK) return 1;
  fail(r, "%s: %s: %s: %s", label, what, gg_strerror(st), gg_error_detail());
  return 0;
}

/* Compares n values against the reference with a per-element tolerance;
 * reports the first few mismatches.  Returns 1 when all match. */
static int compare(run *r, const char *label, gg_dtype t, const void *got, const long double *ref,
                   const long double *tol, size_t n)
{
  size_t bad = 0;
  r->checks++;
  for (size_t i = 0; i < n; i++) {
    long double g = tget(t, got, i), err = fabsl(g - ref[i]);
    if (err <= tol[i]) continue;  /* also rejects NaN */
    if (bad++ < 3)
      fail(r, "%s: [%zu] = %.9Lg, expected %.9Lg (|err| %.3Lg > tol %.3Lg)", label, i, g, ref[i],
           err, tol[i]);
  }
  if (bad > 3) fail(r, "%s: %zu of %zu elements wrong", label, bad, n);
  return bad == 0;
}

/* ---- device arrays ---- */

static gg_array *arr_in(run *r, gg_dtype t, const void *host, size_t n, const char *label)
{
  gg_array *a = NULL;
  if (!ok(r, gg_array_alloc(r->ctx, GG_SPACE_DEVICE, n * tsize(t), &a), "alloc", label)) return NULL;
  if (!ok(r, gg_copy_from_host(a, 0, host, n * tsize(t), NULL), "copy in", label)) {
    gg_array_free(a);
    return NULL;
  }
  return a;
}

/* An output of n elements plus the guard, all set to the guard pattern. */
static gg_array *arr_out(run *r, gg_dtype t, size_t n, const char *label)
{
  gg_array *a = NULL;
  size_t bytes = (n + GUARD) * tsize(t);
  if (!ok(r, gg_array_alloc(r->ctx, GG_SPACE_DEVICE, bytes, &a), "alloc", label)) return NULL;
  unsigned char *g = xmalloc(bytes);
  memset(g, GUARD_BYTE, bytes);
  int good = ok(r, gg_copy_from_host(a, 0, g, bytes, NULL), "copy in", label);
  free(g);
  if (!good) {
    gg_array_free(a);
    return NULL;
  }
  return a;
}

static int rearm(run *r, gg_array *a, const char *label)
{
  size_t bytes = gg_array_bytes(a);
  unsigned char *g = xmalloc(bytes);
  memset(g, GUARD_BYTE, bytes);
  int good = ok(r, gg_copy_from_host(a, 0, g, bytes, NULL), "copy in", label);
  free(g);
  return good;
}

/* Copies the n elements of output a into host, and checks its guard. */
static int read_out(run *r, gg_array *a, gg_dtype t, size_t n, void *host, const char *label)
{
  size_t bytes = gg_array_bytes(a);
  unsigned char *all = xmalloc(bytes);
  int good = ok(r, gg_copy_to_host(all, a, 0, bytes, NULL), "copy out", label);
  if (good) {
    memcpy(host, all, n * tsize(t));
    for (size_t i = n * tsize(t); i < bytes; i++)
      if (all[i] != GUARD_BYTE) {
        fail(r, "%s: wrote past its output (byte %zu of the guard after %zu elements)", label,
             i - n * tsize(t), n);
        good = 0;
        break;
      }
  }
  free(all);
  return good;
}

static gg_kernel *kernel(run *r, const gg_module_desc *desc, const char *name)
{
  gg_module *m = NULL;
  gg_kernel *k = NULL;
  if (!ok(r, gg_module_load(r->ctx, desc, &m), "module load", desc->name)) return NULL;
  if (!ok(r, gg_kernel_get(m, name, &k), "kernel get", name)) return NULL;
  return k;
}

/* Launch on the default stream and wait for it: gg_stream_sync() takes no
 * NULL (the default stream has no context to name), gg_device_sync() does
 * that, and a kernel fault shows up here, named by its label. */
static int launch(run *r, gg_kernel *k, const gg_arg *args, int nargs, const char *label)
{
  return ok(r, gg_launch(k, NULL, args, nargs), "launch", label) &&
         ok(r, gg_device_sync(r->ctx), "sync", label);
}

/* ---- pattern "for": saxpy, inc32k, stencil2d_left ---- */

/* y = a*x + y over every size, in type t. */
static void check_saxpy(run *r, const gg_module_desc *desc, const char *name, gg_dtype t)
{
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  long double a = tfloat(t) ? 2.5L : 3;
  for (int s = 0; s < NSIZES; s++) {
    size_t n = (size_t)sizes[s];
    char label[96];
    snprintf(label, sizeof label, "%s[%s] n=%zu", name, tname(t), n);
    void *x = xmalloc(n * tsize(t)), *y = xmalloc(n * tsize(t)), *got = xmalloc(n * tsize(t));
    long double *ref = xmalloc(n * sizeof *ref), *tol = xmalloc(n * sizeof *tol);
    fill(t, x, n, 11 + s, FILL_MIXED);
    fill(t, y, n, 12 + s, FILL_MIXED);
    for (size_t i = 0; i < n; i++) {
      long double ax = a * tget(t, x, i), yi = tget(t, y, i);
      ref[i] = ax + yi;
      /* one rounding (fma) or two (a*x, then + y): both within 2 eps */
      tol[i] = 2 * teps(t) * (fabsl(ax) + fabsl(yi));
    }
    /* y is inout: uploaded into an output with a guard after it */
    gg_array *dx = arr_in(r, t, x, n, label), *dy = arr_out(r, t, n, label);
    if (dx && dy && ok(r, gg_copy_from_host(dy, 0, y, n * tsize(t), NULL), "copy in", label)) {
      gg_arg args[] = {targ(t, a), gg_arg_array(dx), gg_arg_array(dy), gg_arg_i64((int64_t)n)};
      if (launch(r, k, args, 4, label) && read_out(r, dy, t, n, got, label))
        compare(r, label, t, got, ref, tol, n);
    }
    gg_array_free(dx);
    gg_array_free(dy);
    free(x), free(y), free(got), free(ref), free(tol);
  }
}

/* v += 1 over a static extent of n, with the type's edge values inside. */
static void check_inc(run *r, const gg_module_desc *desc, const char *name, gg_dtype t, size_t n)
{
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  char label[96];
  snprintf(label, sizeof label, "%s[%s] n=%zu", name, tname(t), n);
  void *v = xmalloc(n * tsize(t)), *got = xmalloc((n + GUARD) * tsize(t));
  long double *ref = xmalloc(n * sizeof *ref), *tol = xcalloc(n, sizeof *tol);
  fill(t, v, n, 21, FILL_MIXED);
  /* edges: the most negative value, -1 and 0; u32 wraps from its max to 0 */
  long double lo = t == GG_I32 ? INT32_MIN : t == GG_I64 ? (long double)INT64_MIN : 0;
  long double hi = t == GG_I32 ? INT32_MAX - 1 : t == GG_U32 ? UINT32_MAX : (long double)(INT64_MAX - 1);
  tset(t, v, 0, lo);
  tset(t, v, n / 2, hi);
  tset(t, v, n - 1, t == GG_U32 ? (long double)(UINT32_MAX - 1) : -1.0L);
  for (size_t i = 0; i < n; i++) {
    long double x = tget(t, v, i);
    ref[i] = t == GG_U32 && x == UINT32_MAX ? 0 : x + 1;
  }
  /* inout: the guard must survive the kernel, so upload it with the data */
  gg_array *dv = arr_out(r, t, n, label);
  if (dv && ok(r, gg_copy_from_host(dv, 0, v, n * tsize(t), NULL), "copy in", label)) {
    gg_arg args[] = {gg_arg_array(dv)};
    if (launch(r, k, args, 1, label) && read_out(r, dv, t, n, got, label))
      compare(r, label, t, got, ref, tol, n);
  }
  gg_array_free(dv);
  free(v), free(got), free(ref), free(tol);
}

/* 5-point Laplacian on an n x m column-major grid (element (i,j) at i + j*n). */
static void check_stencil(run *r, const gg_module_desc *desc, const char *name, gg_dtype t)
{
  static const int64_t shapes[][2] = {{1, 1},     {31, 1},     {1, 31},   {1000, 1},
                                      {32, 32},   {4097, 3},   {3, 4097}, {1024, 1024},
                                      {1009, 991}, {1000003, 1}, {2, 500002}};
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    size_t n = (size_t)shapes[s][0], m = (size_t)shapes[s][1], nm = n * m;
    char label[96];
    snprintf(label, sizeof label, "%s[%s] %zux%zu", name, tname(t), n, m);
    void *u = xmalloc(nm * tsize(t)), *got = xmalloc(nm * tsize(t));
    long double *ref = xmalloc(nm * sizeof *ref), *tol = xmalloc(nm * sizeof *tol);
    fill(t, u, nm, 31 + s, FILL_MIXED);
#define U(i, j) tget(t, u, (i) + (j) * n)
    for (size_t j = 0; j < m; j++)
      for (size_t i = 0; i < n; i++) {
        ref[i + j * n] = tol[i + j * n] = 0;
        if (i == 0 || j == 0 || i == n - 1 || j == m - 1) continue;
        long double w = U(i - 1, j), e = U(i + 1, j), so = U(i, j - 1), no = U(i, j + 1), c = U(i, j);
        ref[i + j * n] = w + e + so + no - 4 * c;
        /* four roundings of sums (4*c is exact); the last may be an fma */
        tol[i + j * n] = 4 * teps(t) * (fabsl(w) + fabsl(e) + fabsl(so) + fabsl(no) + 4 * fabsl(c));
      }
#undef U
    gg_array *du = arr_in(r, t, u, nm, label), *dl = arr_out(r, t, nm, label);
    if (du && dl) {
      gg_arg args[] = {gg_arg_array(du), gg_arg_array(dl), gg_arg_i64((int64_t)n), gg_arg_i64((int64_t)m)};
      if (launch(r, k, args, 4, label) && read_out(r, dl, t, nm, got, label))
        compare(r, label, t, got, ref, tol, nm);
    }
    gg_array_free(du);
    gg_array_free(dl);
    free(u), free(got), free(ref), free(tol);
  }
}

/* ---- pattern "team": matmul ---- */

/* C = A * B, N x N, row-major. */
static void check_matmul(run *r, const gg_module_desc *desc, const char *name, gg_dtype t, size_t N)
{
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  char label[96];
  snprintf(label, sizeof label, "%s[%s] %zux%zu", name, tname(t), N, N);
  size_t nn = N * N;
  void *A = xmalloc(nn * tsize(t)), *B = xmalloc(nn * tsize(t)), *got = xmalloc(nn * tsize(t));
  long double *ref = xmalloc(nn * sizeof *ref), *tol = xmalloc(nn * sizeof *tol);
  fill(t, A, nn, 41, FILL_MIXED);
  fill(t, B, nn, 42, FILL_MIXED);
  for (size_t i = 0; i < N; i++)
    for (size_t j = 0; j < N; j++) {
      long double acc = 0, mag = 0;
      for (size_t e = 0; e < N; e++) {
        long double p = tget(t, A, i * N + e) * tget(t, B, e * N + j);
        acc += p;
        mag += fabsl(p);
      }
      ref[i * N + j] = acc;
      tol[i * N + j] = (long double)N * teps(t) * mag;
    }
  gg_array *dA = arr_in(r, t, A, nn, label), *dB = arr_in(r, t, B, nn, label);
  gg_array *dC = arr_out(r, t, nn, label);
  if (dA && dB && dC) {
    gg_arg args[] = {gg_arg_array(dA), gg_arg_array(dB), gg_arg_array(dC)};
    if (launch(r, k, args, 3, label) && read_out(r, dC, t, nn, got, label))
      compare(r, label, t, got, ref, tol, nn);
  }
  gg_array_free(dA);
  gg_array_free(dB);
  gg_array_free(dC);
  free(A), free(B), free(got), free(ref), free(tol);
}

/* ---- reduce, scan, tile_reduce ---- */

typedef enum red_op { RED_SUM, RED_MAX, RED_ABSMAX, RED_MOMENTS } red_op;

/* The reference of op over x: out[0] (and out[1] for moments: the sum of
 * x*x rounded to x's type, as the kernel's f32 product is), and the
 * tolerance of each. */
static int reduce_ref(red_op op, gg_dtype tin, gg_dtype tacc, const void *x, size_t n,
                      fill_mode mode, long double *ref, long double *tol)
{
  long double sum = 0, abs = 0, sq = 0, mx = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    long double v = tget(tin, x, i);
    long double v2 = tin == GG_F32 ? (long double)(float)(v * v) : v * v;
    sum += v, abs += fabsl(v), sq += v2; /* v2 >= 0: sq is its own sum|.| */
    long double c = op == RED_ABSMAX ? fabsl(v) : v;
    if (c > mx) mx = c;
  }
  int exact = !tfloat(tacc) || mode == FILL_DYADIC;
  switch (op) {
  case RED_SUM: ref[0] = sum, tol[0] = exact ? 0 : tsumtol(tacc) * abs; return 1;
  case RED_MAX: case RED_ABSMAX: ref[0] = mx, tol[0] = 0; return 1;
  default:
    ref[0] = sum, tol[0] = tsumtol(tacc) * abs;
    ref[1] = sq, tol[1] = tsumtol(tacc) * sq;
    return 2;
  }
}

/* One reduce kernel at one size: into(0..nout-1) against the reference,
 * launched twice (the second launch finds the workspace as the first left
 * it).  has_n: the kernel takes the run-time extent n. */
static void reduce_once(run *r, gg_kernel *k, const char *name, red_op op, gg_dtype tin,
                        gg_dtype tout, size_t n, int has_n, fill_mode mode)
{
  char label[128];
  snprintf(label, sizeof label, "%s[%s] n=%zu %s", name, tname(tin), n, fill_names[mode]);
  void *x = xmalloc(n * tsize(tin));
  double got[2]; /* the largest output: moments' two f64 */
  long double ref[2], tol[2];
  fill(tin, x, n, 51 + n, mode);
  int nout = reduce_ref(op, tin, tout, x, n, mode, ref, tol);
  gg_array *dx = arr_in(r, tin, x, n, label), *dout = arr_out(r, tout, (size_t)nout, label);
  for (int rep = 0; rep < 2 && dx && dout; rep++) {
    gg_arg args[] = {gg_arg_array(dx), gg_arg_array(dout), gg_arg_i64((int64_t)n)};
    if (!(rep == 0 || rearm(r, dout, label)) || !launch(r, k, args, has_n ? 3 : 2, label) ||
        !read_out(r, dout, tout, (size_t)nout, got, label) ||
        !compare(r, label, tout, got, ref, tol, (size_t)nout))
      break;
  }
  gg_array_free(dx);
  gg_array_free(dout);
  free(x);
}

/* A reduce kernel over every size (has_n) or at its static extent n. */
static void check_reduce(run *r, const gg_module_desc *desc, const char *name, red_op op,
                         gg_dtype tin, gg_dtype tout, int has_n, size_t n)
{
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  for (int s = 0; s < (has_n ? NSIZES : 1); s++) {
    size_t len = has_n ? (size_t)sizes[s] : n;
    reduce_once(r, k, name, op, tin, tout, len, has_n, FILL_MIXED);
    if (op == RED_SUM && tfloat(tin)) reduce_once(r, k, name, op, tin, tout, len, has_n, FILL_DYADIC);
    if (op == RED_MAX) reduce_once(r, k, name, op, tin, tout, len, has_n, FILL_NEGATIVE);
  }
}

/* y(i) = x(0) + ... + x(i) (inclusive) or + x(i-1) (exclusive), launched twice. */
static void scan_once(run *r, gg_kernel *k, const char *name, gg_dtype t, size_t n,
                      int inclusive, fill_mode mode)
{
  char label[128];
  snprintf(label, sizeof label, "%s[%s] n=%zu %s", name, tname(t), n, fill_names[mode]);
  void *x = xmalloc(n * tsize(t)), *got = xmalloc(n * tsize(t));
  long double *ref = xmalloc(n * sizeof *ref), *tol = xmalloc(n * sizeof *tol);
  fill(t, x, n, 61 + n, mode);
  long double sum = 0, abs = 0;
  int exact = !tfloat(t) || mode == FILL_DYADIC;
  for (size_t i = 0; i < n; i++) {
    long double v = tget(t, x, i);
    if (inclusive) sum += v, abs += fabsl(v);
    ref[i] = sum, tol[i] = exact ? 0 : tsumtol(t) * abs;
    if (!inclusive) sum += v, abs += fabsl(v);
  }
  gg_array *dx = arr_in(r, t, x, n, label), *dy = arr_out(r, t, n, label);
  for (int rep = 0; rep < 2 && dx && dy; rep++) {
    gg_arg args[] = {gg_arg_array(dx), gg_arg_array(dy), gg_arg_i64((int64_t)n)};
    if (!(rep == 0 || rearm(r, dy, label)) || !launch(r, k, args, 3, label) ||
        !read_out(r, dy, t, n, got, label) || !compare(r, label, t, got, ref, tol, n))
      break;
  }
  gg_array_free(dx);
  gg_array_free(dy);
  free(x), free(got), free(ref), free(tol);
}

static void check_scan(run *r, const gg_module_desc *desc, const char *name, gg_dtype t,
                       int inclusive)
{
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  for (int s = 0; s < NSIZES; s++) {
    scan_once(r, k, name, t, (size_t)sizes[s], inclusive, FILL_MIXED);
    if (tfloat(t)) scan_once(r, k, name, t, (size_t)sizes[s], inclusive, FILL_DYADIC);
  }
}

/* out(j) = sum of the tile-th j-th group of x, the last one partial. */
static void check_tile(run *r, const gg_module_desc *desc, const char *name, gg_dtype t, size_t tile)
{
  gg_kernel *k = kernel(r, desc, name);
  if (!k) return;
  for (int s = 0; s < NSIZES; s++) {
    size_t n = (size_t)sizes[s], ntiles = (n + tile - 1) / tile;
    char label[128];
    snprintf(label, sizeof label, "%s[%s] n=%zu", name, tname(t), n);
    void *x = xmalloc(n * tsize(t)), *got = xmalloc(ntiles * tsize(t));
    long double *ref = xcalloc(ntiles, sizeof *ref), *tol = xcalloc(ntiles, sizeof *tol);
    fill(t, x, n, 71 + s, FILL_MIXED);
    for (size_t i = 0; i < n; i++) {
      long double v = tget(t, x, i);
      ref[i / tile] += v;
      tol[i / tile] += (long double)tile * teps(t) * fabsl(v);  /* tile-term sum bound */
    }
    gg_array *dx = arr_in(r, t, x, n, label), *dout = arr_out(r, t, ntiles, label);
    for (int rep = 0; rep < 2 && dx && dout; rep++) {
      gg_arg args[] = {gg_arg_array(dx), gg_arg_array(dout), gg_arg_i64((int64_t)n),
                       gg_arg_i64((int64_t)ntiles)};
      if (!(rep == 0 || rearm(r, dout, label)) || !launch(r, k, args, 4, label) ||
          !read_out(r, dout, t, ntiles, got, label) || !compare(r, label, t, got, ref, tol, ntiles))
        break;
    }
    gg_array_free(dx);
    gg_array_free(dout);
    free(x), free(got), free(ref), free(tol);
  }
}

/* ---- the examples, one group each (one ctest each) ---- */

static void group_saxpy(run *r)
{
  check_saxpy(r, &gg_module_saxpy, "saxpy", GG_F32);
  check_saxpy(r, &gg_module_typed, "saxpy_f64", GG_F64);
  check_saxpy(r, &gg_module_typed, "saxpy_i32", GG_I32);
}

static void group_inc32k(run *r)
{
  check_inc(r, &gg_module_inc32k, "inc32k", GG_I32, 32768);
  check_inc(r, &gg_module_typed, "inc32k_i64", GG_I64, 32768);
  check_inc(r, &gg_module_typed, "inc32k_u32", GG_U32, 32768);
}

static void group_stencil2d_left(run *r)
{
  check_stencil(r, &gg_module_stencil2d_left, "stencil2d_left", GG_F32);
  check_stencil(r, &gg_module_typed, "stencil2d_left_f64", GG_F64);
}

static void group_matmul(run *r)
{
  check_matmul(r, &gg_module_matmul32, "matmul32", GG_F32, 32);
  check_matmul(r, &gg_module_matmul64, "matmul64", GG_F32, 64);
  check_matmul(r, &gg_module_matmul128, "matmul128", GG_F32, 128);
  check_matmul(r, &gg_module_typed, "matmul32_f64", GG_F64, 32);
}

static void group_sum1k(run *r)
{
  check_reduce(r, &gg_module_sum1k, "sum1k", RED_SUM, GG_F32, GG_F32, 0, 1024);
  check_reduce(r, &gg_module_typed, "sum1k_f64", RED_SUM, GG_F64, GG_F64, 0, 1024);
  check_reduce(r, &gg_module_typed, "sum1k_i32", RED_SUM, GG_I32, GG_I32, 0, 1024);
}

static void group_sum32k(run *r)
{
  check_reduce(r, &gg_module_sum32k, "sum32k", RED_SUM, GG_F32, GG_F32, 0, 32768);
  check_reduce(r, &gg_module_typed, "sum32k_f64", RED_SUM, GG_F64, GG_F64, 0, 32768);
  check_reduce(r, &gg_module_typed, "sum32k_i32", RED_SUM, GG_I32, GG_I32, 0, 32768);
}

static void group_coop_reduce(run *r)
{
  check_reduce(r, &gg_module_coop_reduce, "coop_reduce", RED_SUM, GG_F64, GG_F64, 1, 0);
  check_reduce(r, &gg_module_typed, "coop_reduce_f32", RED_SUM, GG_F32, GG_F32, 1, 0);
  check_reduce(r, &gg_module_typed, "coop_reduce_i64", RED_SUM, GG_I64, GG_I64, 1, 0);
}

static void group_scan(run *r)
{
  check_scan(r, &gg_module_scan_inclusive, "scan_inclusive", GG_F32, 1);
  check_scan(r, &gg_module_typed, "scan_inclusive_i32", GG_I32, 1);
  check_scan(r, &gg_module_typed, "scan_inclusive_f64", GG_F64, 1);
  check_scan(r, &gg_module_typed, "scan_exclusive_f32", GG_F32, 0);
}

static void group_tile_reduce16(run *r)
{
  check_tile(r, &gg_module_tile_reduce16, "tile_reduce16", GG_F32, 16);
  check_tile(r, &gg_module_typed, "tile_reduce16_i32", GG_I32, 16);
  check_tile(r, &gg_module_typed, "tile_reduce16_f64", GG_F64, 16);
}

/* examples/strategies.lua as written (tests/reduce covers every strategy
 * x op x type; this proves the example file itself). */
static void group_strategies(run *r)
{
  static const char *const sums[] = {"sum_global_atomic", "sum_shared_atomic", "sum_warp_shuffle",
                                     "sum_shared_tree", "sum_cg_tile", "sum_deterministic",
                                     "sum_grid_sync"};
  for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++)
    check_reduce(r, &gg_module_strategies, sums[i], RED_SUM, GG_F32, GG_F32, 1, 0);
  check_reduce(r, &gg_module_strategies, "max_i32", RED_MAX, GG_I32, GG_I32, 1, 0);
  check_reduce(r, &gg_module_strategies, "max_f32_cas", RED_MAX, GG_F32, GG_F32, 1, 0);
  check_reduce(r, &gg_module_strategies, "moments", RED_MOMENTS, GG_F32, GG_F64, 1, 0);
  check_reduce(r, &gg_module_strategies, "absmax", RED_ABSMAX, GG_F32, GG_F32, 1, 0);
}

static const struct group {
  const char *name;
  void (*fn)(run *r);
} groups[] = {
  {"saxpy", group_saxpy},
  {"inc32k", group_inc32k},
  {"stencil2d_left", group_stencil2d_left},
  {"matmul", group_matmul},
  {"sum1k", group_sum1k},
  {"sum32k", group_sum32k},
  {"coop_reduce", group_coop_reduce},
  {"scan_inclusive", group_scan},
  {"tile_reduce16", group_tile_reduce16},
  {"strategies", group_strategies},
};
#define NGROUPS (int)(sizeof groups / sizeof groups[0])

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int wanted(const char *name, int argc, char **argv)
{
  if (argc < 2) return 1;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], name) == 0) return 1;
  return 0;
}

int main(int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    int known = 0;
    for (int g = 0; g < NGROUPS; g++) known |= strcmp(argv[i], groups[g].name) == 0;
    if (!known) {
      fprintf(stderr, "test_examples: no group \"%s\"; groups:", argv[i]);
      for (int g = 0; g < NGROUPS; g++) fprintf(stderr, " %s", groups[g].name);
      fputc('\n', stderr);
      return 2;
    }
  }
  run r = {0};
  r.ctx = gg_check_open(NULL);
  printf("device: %s (%s, %d SMs)\n", gg_context_device_name(r.ctx), gg_context_arch(r.ctx),
         gg_context_sm_count(r.ctx));
  for (int g = 0; g < NGROUPS; g++) {
    if (!wanted(groups[g].name, argc, argv)) continue;
    int f0 = r.failures, c0 = r.checks;
    double t0 = now_ms();
    groups[g].fn(&r);
    printf("%-16s %4d checks, %d failures, %.0f ms\n", groups[g].name, r.checks - c0,
           r.failures - f0, now_ms() - t0);
    fflush(stdout);
  }
  gg_context_free(r.ctx);
  printf("%s: %d checks, %d failures\n", r.failures ? "FAIL" : "PASS", r.checks, r.failures);
  return r.failures ? 1 : 0;
}
