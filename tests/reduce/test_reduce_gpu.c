/*
 * test_reduce_gpu.c - every kernel of reduce_all.lua against a CPU
 * reference, through `gpugen emit` and the runtime.
 *
 * Reductions (r_<strategy>_<op>_<type>): sizes 1, 31, 1000, 1024, 4097,
 * 1<<20, 1000003.  Integers compare exactly (wrapping arithmetic, as the
 * GPU does).  Float sums compare with an f64 reference:
 *   |gpu - ref| <= tol * sum|x| + tiny,  tol = 1e-5 (f32), 1e-12 (f64),
 *   2e-3 for f16/bf16 inputs (the reference sums the rounded inputs, the
 *   GPU sums them in f32: tolerance covers f32 accumulation only).
 * Products use values within 1e-3 of 1 and a relative tolerance of
 * 100 x tol (rounding of a million factors adds up, in any order).
 * Deterministic: 100 launches of a 1000003-element f32 sum are
 * bit-identical.  Scans: inclusive and exclusive of i32, u32, f32, i64,
 * u64, f64, every size; scanring_*: 17000003 elements in tiles of 64,
 * 265626 tiles, past the ring of look-back slots.  Tiles:
 * 11 tile sizes at several sizes.  The bf16 inputs live in their own
 * cuda-only module (reduce_bf16.lua), checked the same way.  Exits 77
 * without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "reduce_all.h"
#include "reduce_bf16.h"
#include "../gg_check.h"

static const long long sizes[] = { 1, 31, 1000, 1024, 4097, 1 << 20, 1000003 };
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
/* scanring_*: 265626 tiles of 64, past the ring of 262144 look-back
 * slots (SCAN_RING in gen/reduce_plan.c) */
static const long long ring_sizes[] = { 4097, 17000003 };
#define MAXN 17000003LL /* the largest size above: buffers hold it */
static int failures, checks;

static gg_context *ctx;
static gg_array *d_in, *d_out;

static void die(const char *what, gg_status s)
{
  fprintf(stderr, "FAIL %s: %s: %s\n", what, gg_strerror(s), gg_error_detail());
  exit(1);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return rng;
}
static double uniform(void) { return (double)(next() >> 11) / 9007199254740992.0; } /* [0,1) */

static uint16_t f2h(float f) /* round to nearest even, normal range only */
{
  uint32_t x; memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0) return (uint16_t)sign;
  int he = (int)e - 127 + 15;
  if (he <= 0) return (uint16_t)sign;
  uint32_t hm = m >> 13, rest = m & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (hm & 1))) hm++;
  if (hm == 0x400) { hm = 0; he++; }
  return (uint16_t)(sign | (uint32_t)he << 10 | hm);
}
static float h2f(uint16_t h)
{
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  uint32_t x = e == 0 ? sign : sign | (e - 15 + 127) << 23 | m << 13;
  float f; memcpy(&f, &x, 4);
  return f;
}
static uint16_t f2bf(float f) { uint32_t x; memcpy(&x, &f, 4); return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16); }
static float bf2f(uint16_t b) { uint32_t x = (uint32_t)b << 16; float f; memcpy(&f, &x, 4); return f; }

enum { T_I32, T_U32, T_I64, T_U64, T_F32, T_F64, T_F16, T_BF16 };
static const char *const tnames[] = { "i32", "u32", "i64", "u64", "f32", "f64", "f16", "bf16" };
static const int tsize[] = { 4, 4, 8, 8, 4, 8, 2, 2 };
enum { OP_SUM, OP_MIN, OP_MAX, OP_PROD };
static const char *const opnames[] = { "sum", "min", "max", "prod" };

static int parse_type(const char *s)
{
  for (int t = 0; t < 8; t++) if (strcmp(s, tnames[t]) == 0) return t;
  return -1;
}

/* Host input as doubles (what the element really holds) and as bytes. */
static double *hv;
static unsigned char *hb;

static void make_input(int t, int op, long long n)
{
  for (long long i = 0; i < n; i++) {
    double v;
    if (op == OP_PROD) {
      if (t == T_F32 || t == T_F64) v = 1.0 + (uniform() - 0.5) * 2e-3;
      else v = (next() % 16 == 0) ? (double)(next() % 3) + 1.0 - 2.0 * (next() % 2 == 0) * 0 : 1.0;
    } else if (t == T_U32 || t == T_U64) {
      v = (double)(next() % 2000);
    } else if (t == T_I32 || t == T_I64) {
      v = (double)((long long)(next() % 2001) - 1000);
    } else {
      v = uniform() * 2.0 - 1.0;
    }
    if (op == OP_PROD && (t == T_I32 || t == T_I64) && next() % 64 == 0) v = -v;
    unsigned char *p = hb + i * tsize[t];
    switch (t) {
    case T_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); v = x; break; }
    case T_U32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); v = x; break; }
    case T_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); v = (double)x; break; }
    case T_U64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); v = (double)x; break; }
    case T_F32: { float x = (float)v; memcpy(p, &x, 4); v = x; break; }
    case T_F64: memcpy(p, &v, 8); break;
    case T_F16: { uint16_t x = f2h((float)v); memcpy(p, &x, 2); v = h2f(x); break; }
    case T_BF16: { uint16_t x = f2bf((float)v); memcpy(p, &x, 2); v = bf2f(x); break; }
    }
    hv[i] = v;
  }
}

static void fail(const char *name, long long n, const char *fmt, double got, double want)
{
  failures++;
  if (failures < 40) {
    printf("FAIL %s n=%lld: ", name, n);
    printf(fmt, got, want);
    printf("\n");
  }
}

/* Integer reference with the GPU's wrapping arithmetic (64-bit lanes,
 * truncated to 32 bits for 32-bit types). */
static uint64_t int_ref(int t, int op, long long n)
{
  int is_signed = t == T_I32 || t == T_I64;
  uint64_t acc = op == OP_SUM ? 0 : op == OP_PROD ? 1 : 0;
  int64_t smin = INT64_MAX, smax = INT64_MIN;
  uint64_t umin = UINT64_MAX, umax = 0;
  for (long long i = 0; i < n; i++) {
    int64_t s = (int64_t)hv[i];
    uint64_t u = (uint64_t)s;
    if (op == OP_SUM) acc += u;
    else if (op == OP_PROD) acc *= u;
    if (s < smin) smin = s;
    if (s > smax) smax = s;
    if (u < umin) umin = u;
    if (u > umax) umax = u;
  }
  if (op == OP_MIN) acc = is_signed ? (uint64_t)smin : umin;
  if (op == OP_MAX) acc = is_signed ? (uint64_t)smax : umax;
  if (tsize[t] == 4) {
    acc &= 0xffffffffu;
    if (is_signed && (acc & 0x80000000u)) acc |= 0xffffffff00000000ull;
  }
  return acc;
}

static void check_reduce(gg_module *mod, const gg_kernel_desc *kd)
{
  char s[64], o[16], ty[16];
  gg_kernel *k;
  if (sscanf(kd->name, "r_%63[a-z_]", s) != 1) { fail(kd->name, 0, "kernel name not understood", 0, 0); return; }
  /* r_<strategy>_<op>_<type>: split from the right */
  const char *last = strrchr(kd->name, '_');
  snprintf(ty, sizeof ty, "%s", last + 1);
  const char *prev = last - 1;
  while (prev > kd->name && *prev != '_') prev--;
  snprintf(o, sizeof o, "%.*s", (int)(last - prev - 1), prev + 1);
  int t = parse_type(ty), op = -1;
  for (int i = 0; i < 4; i++) if (strcmp(o, opnames[i]) == 0) op = i;
  if (t < 0 || op < 0) { fail(kd->name, 0, "kernel name not understood", 0, 0); return; }
  gg_status st = gg_kernel_get(mod, kd->name, &k);
  if (st) die(kd->name, st);
  for (int si = 0; si < NSIZES; si++) {
    long long n = sizes[si];
    make_input(t, op, n);
    if ((st = gg_copy_from_host(d_in, 0, hb, (size_t)n * tsize[t], NULL))) die("copy in", st);
    gg_arg a[3] = { gg_arg_array(d_in), gg_arg_array(d_out), gg_arg_i64(n) };
    unsigned char out[16] = { 0 };
    if ((st = gg_launch(k, NULL, a, 3))) die(kd->name, st);
    int osize = (t == T_F16 || t == T_BF16) ? 4 : tsize[t];
    if ((st = gg_copy_to_host(out, d_out, 0, (size_t)osize, NULL))) die("copy out", st);
    checks++;
    if (t <= T_U64) {
      uint64_t want = int_ref(t, op, n), got = 0;
      if (tsize[t] == 4) {
        uint32_t g32; memcpy(&g32, out, 4);
        got = g32;
        if ((t == T_I32) && (g32 & 0x80000000u)) got |= 0xffffffff00000000ull;
      } else {
        memcpy(&got, out, 8);
      }
      if (got != want) fail(kd->name, n, "got %.0f want %.0f", (double)(int64_t)got, (double)(int64_t)want);
      continue;
    }
    double got;
    if (t == T_F64) memcpy(&got, out, 8);
    else { float f; memcpy(&f, out, 4); got = f; }
    const int expr = strncmp(kd->name, "r_expr", 6) == 0; /* value = 2 x(i) + 1 */
    double ref = op == OP_SUM ? 0 : op == OP_PROD ? 1 : hv[0], mag = 0;
    for (long long i = 0; i < n; i++) {
      double v = expr ? 2.0 * hv[i] + 1.0 : hv[i];
      mag += fabs(v);
      if (op == OP_SUM) ref += v;
      else if (op == OP_PROD) ref *= v;
      else if (op == OP_MIN) ref = v < ref ? v : ref;
      else ref = v > ref ? v : ref;
    }
    double tol = t == T_F64 ? 1e-12 : t == T_F32 ? 1e-5 : 2e-3;
    double bound = op == OP_SUM ? tol * mag + 1e-30 : op == OP_PROD ? tol * 100 * fabs(ref) : 0;
    if (!(fabs(got - ref) <= bound)) fail(kd->name, n, "got %.17g want %.17g", got, ref);
  }
}

static void check_moments(gg_module *mod)
{
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, "moments", &k);
  if (st) die("moments", st);
  for (int si = 0; si < NSIZES; si++) {
    long long n = sizes[si];
    make_input(T_F32, OP_SUM, n);
    if ((st = gg_copy_from_host(d_in, 0, hb, (size_t)n * 4, NULL))) die("copy", st);
    gg_arg a[3] = { gg_arg_array(d_in), gg_arg_array(d_out), gg_arg_i64(n) };
    if ((st = gg_launch(k, NULL, a, 3))) die("moments", st);
    double got[2], s = 0, s2 = 0, mag = 0;
    if ((st = gg_copy_to_host(got, d_out, 0, 16, NULL))) die("copy", st);
    /* The workload squares in f32 (x is f32) and accumulates in f64, so
     * the reference rounds the square to float too. */
    for (long long i = 0; i < n; i++) {
      float xf = (float)hv[i];
      s += hv[i]; s2 += (double)(xf * xf); mag += fabs(hv[i]);
    }
    checks++;
    if (fabs(got[0] - s) > 1e-12 * mag + 1e-300 || fabs(got[1] - s2) > 1e-12 * s2 + 1e-300)
      fail("moments", n, "got %.17g want %.17g", got[0] + got[1], s + s2);
  }
}

/* Static sizes: one block (grid fixed at 1), two arguments. */
static void check_small(gg_module *mod, const gg_kernel_desc *kd)
{
  long long n = atoll(strrchr(kd->name, '_') + 1);
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, kd->name, &k);
  if (st) die(kd->name, st);
  if (kd->grid_rule != GG_GRID_FIXED || kd->grid_fixed != 1) fail(kd->name, n, "grid %g want %g", kd->grid_fixed, 1);
  make_input(T_F32, OP_SUM, n);
  if ((st = gg_copy_from_host(d_in, 0, hb, (size_t)n * 4, NULL))) die("copy", st);
  gg_arg a[2] = { gg_arg_array(d_in), gg_arg_array(d_out) };
  if ((st = gg_launch(k, NULL, a, 2))) die(kd->name, st);
  float got;
  if ((st = gg_copy_to_host(&got, d_out, 0, 4, NULL))) die("copy", st);
  double ref = 0, mag = 0;
  for (long long i = 0; i < n; i++) { ref += hv[i]; mag += fabs(hv[i]); }
  checks++;
  if (!(fabs(got - ref) <= 1e-5 * mag)) fail(kd->name, n, "got %.9g want %.9g", got, ref);
}

static void check_deterministic(gg_module *mod)
{
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, "r_deterministic_sum_f32", &k);
  if (st) die("deterministic", st);
  long long n = 1000003;
  make_input(T_F32, OP_SUM, n);
  if ((st = gg_copy_from_host(d_in, 0, hb, (size_t)n * 4, NULL))) die("copy", st);
  gg_arg a[3] = { gg_arg_array(d_in), gg_arg_array(d_out), gg_arg_i64(n) };
  uint32_t first = 0;
  for (int r = 0; r < 100; r++) {
    uint32_t bits;
    if ((st = gg_launch(k, NULL, a, 3))) die("deterministic", st);
    if ((st = gg_copy_to_host(&bits, d_out, 0, 4, NULL))) die("copy", st);
    if (r == 0) first = bits;
    checks++;
    if (bits != first) { fail("deterministic run", r, "bits %.0f vs %.0f", bits, first); break; }
  }
}

/* scan_<kind>_<type> (or scanring_...) on sizes sz[0..nsz): every element
 * against a CPU prefix, integers exactly (wrapping, as the GPU). */
static void check_scan(gg_module *mod, const gg_kernel_desc *kd, const long long *sz, int nsz)
{
  char kind[16], ty[8];
  if (sscanf(kd->name, "%*[a-z]_%15[a-z]_%7s", kind, ty) != 2 || parse_type(ty) < 0) { fail(kd->name, 0, "kernel name not understood", 0, 0); return; }
  int t = parse_type(ty), incl = strcmp(kind, "inclusive") == 0;
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, kd->name, &k);
  if (st) die(kd->name, st);
  unsigned char *out = malloc((size_t)MAXN * 8);
  for (int si = 0; si < nsz; si++) {
    long long n = sz[si];
    make_input(t, OP_SUM, n);
    if ((st = gg_copy_from_host(d_in, 0, hb, (size_t)n * tsize[t], NULL))) die("copy", st);
    gg_arg a[3] = { gg_arg_array(d_in), gg_arg_array(d_out), gg_arg_i64(n) };
    /* twice: the second launch must ignore the first one's flags */
    for (int rep = 0; rep < 2; rep++) {
      if ((st = gg_launch(k, NULL, a, 3))) die(kd->name, st);
      if ((st = gg_copy_to_host(out, d_out, 0, (size_t)n * tsize[t], NULL))) die("copy", st);
      checks++;
      double run = 0, mag = 0;
      int64_t irun = 0;
      for (long long i = 0; i < n; i++) {
        double want;
        int64_t iwant;
        if (incl) { run += hv[i]; irun += (int64_t)hv[i]; mag += fabs(hv[i]); }
        want = run; iwant = irun;
        if (!incl) { run += hv[i]; irun += (int64_t)hv[i]; mag += fabs(hv[i]); }
        int bad;
        double got;
        if (t == T_I32) { int32_t g; memcpy(&g, out + i * 4, 4); got = g; bad = g != (int32_t)iwant; }
        else if (t == T_U32) { uint32_t g; memcpy(&g, out + i * 4, 4); got = g; bad = g != (uint32_t)iwant; }
        else if (t == T_I64) { int64_t g; memcpy(&g, out + i * 8, 8); got = (double)g; bad = g != iwant; }
        else if (t == T_U64) { uint64_t g; memcpy(&g, out + i * 8, 8); got = (double)g; bad = g != (uint64_t)iwant; }
        else if (t == T_F32) { float g; memcpy(&g, out + i * 4, 4); got = g; bad = !(fabs(got - want) <= 1e-5 * mag + 1e-6); }
        else { double g; memcpy(&g, out + i * 8, 8); got = g; bad = !(fabs(got - want) <= 1e-12 * mag + 1e-15); }
        if (bad) { fail(kd->name, n * 1000 + i % 1000, "got %.9g want %.9g", got, want); break; }
      }
    }
  }
  free(out);
}

static void check_tile(gg_module *mod, const gg_kernel_desc *kd)
{
  char o[8], ty[8];
  int tile;
  if (sscanf(kd->name, "tile_%7[a-z]_%7[a-z0-9]_%d", o, ty, &tile) != 3 || parse_type(ty) < 0) { fail(kd->name, 0, "kernel name not understood", 0, 0); return; }
  int t = parse_type(ty), op = strcmp(o, "sum") == 0 ? OP_SUM : OP_MAX;
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, kd->name, &k);
  if (st) die(kd->name, st);
  static const long long tsizes[] = { 1, 31, 1000, 4097, 1000003 };
  unsigned char *out = malloc((size_t)MAXN * 4);
  for (int si = 0; si < 5; si++) {
    long long n = tsizes[si], nt = (n + tile - 1) / tile;
    make_input(t, op, n);
    if ((st = gg_copy_from_host(d_in, 0, hb, (size_t)n * 4, NULL))) die("copy", st);
    gg_arg a[4] = { gg_arg_array(d_in), gg_arg_array(d_out), gg_arg_i64(n), gg_arg_i64(nt) };
    if ((st = gg_launch(k, NULL, a, 4))) die(kd->name, st);
    if ((st = gg_copy_to_host(out, d_out, 0, (size_t)nt * 4, NULL))) die("copy", st);
    checks++;
    for (long long j = 0; j < nt; j++) {
      double want = op == OP_SUM ? 0 : -1e300, mag = 0;
      for (long long i = j * tile; i < n && i < (j + 1) * tile; i++) {
        want = op == OP_SUM ? want + hv[i] : (hv[i] > want ? hv[i] : want);
        mag += fabs(hv[i]);
      }
      double got;
      int bad;
      if (t == T_F32) { float g; memcpy(&g, out + j * 4, 4); got = g; bad = !(fabs(got - want) <= 1e-5 * mag + 1e-6); }
      else { int32_t g; memcpy(&g, out + j * 4, 4); got = g; bad = got != want; }
      if (bad) { fail(kd->name, n, "got %.9g want %.9g", got, want); break; }
    }
  }
  free(out);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_status st;
  gg_module *mod, *mod_bf16;
  if ((st = gg_module_load(ctx, &gg_module_reduce_all, &mod))) die("module load", st);
  if ((st = gg_module_load(ctx, &gg_module_reduce_bf16, &mod_bf16))) die("module load", st);
  if ((st = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)MAXN * 8, &d_in))) die("alloc", st);
  if ((st = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)MAXN * 8, &d_out))) die("alloc", st);
  hv = malloc((size_t)MAXN * sizeof *hv);
  hb = malloc((size_t)MAXN * 8);
  const struct { const gg_module_desc *desc; gg_module *mod; } mods[] = {
    { &gg_module_reduce_all, mod }, { &gg_module_reduce_bf16, mod_bf16 },
  };
  for (int mi = 0; mi < 2; mi++) {
    const gg_module_desc *md = mods[mi].desc;
    for (int i = 0; i < md->nkernels; i++) {
      const gg_kernel_desc *kd = &md->kernels[i];
      int before = failures;
      if (strncmp(kd->name, "r_", 2) == 0) check_reduce(mods[mi].mod, kd);
      else if (strncmp(kd->name, "scan_", 5) == 0) check_scan(mods[mi].mod, kd, sizes, NSIZES);
      else if (strncmp(kd->name, "scanring_", 9) == 0) check_scan(mods[mi].mod, kd, ring_sizes, 2);
      else if (strncmp(kd->name, "tile_", 5) == 0) check_tile(mods[mi].mod, kd);
      else if (strncmp(kd->name, "small_", 6) == 0) check_small(mods[mi].mod, kd);
      else if (strcmp(kd->name, "moments") != 0) fail(kd->name, 0, "no check for this kernel", 0, 0);
      if (failures > before)
        printf("  %s (%s): %d failures\n", kd->name, kd->strategy, failures - before);
      else
        printf("ok %s (%s)\n", kd->name, kd->strategy);
      fflush(stdout); /* progress survives a hang and a timeout */
    }
  }
  check_moments(mod);
  check_deterministic(mod);
  printf("%d checks, %d failures (device %s)\n", checks, failures, gg_context_device_name(ctx));
  gg_array_free(d_in);
  gg_array_free(d_out);
  gg_module_free(mod);
  gg_module_free(mod_bf16);
  gg_context_free(ctx);
  free(hv);
  free(hb);
  return failures ? 1 : 0;
}
