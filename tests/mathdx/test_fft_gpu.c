/*
 * test_fft_gpu - pattern "fft" (cuFFTDx block FFT, tests/mathdx/
 * fft_gpu.lua) on the GPU against a CPU DFT in double:
 *   - classic launches of every kernel (c2c forward and inverse, r2c, c2r;
 *     f32 and f64; 12, 16, 100, 240, 256, 1000, 1024 points; in place;
 *     one FFT without a batch extent) at batch 1, 3, 7 and 37, one block
 *     per item, and on a grid of 2 blocks (each strides over the batch);
 *   - strided views (through shared memory at the views' own addresses):
 *     c2c f32 with layout "left" (items interleaved, re and im planes),
 *     c2c f64 in place with cuFFT-like padded items (layout "stride",
 *     idist 2N + 6), r2c 1000 from every other real into a batch-fastest
 *     spectrum, c2r 320 from re / im planes into padded items; every
 *     element of the output array outside the output view must keep its
 *     old value;
 *   - the 256-point FFT as a persistent command (one_block, many_blocks,
 *     32 threads) and the 1024-point ones (256 threads: c2c moves data
 *     between global memory and registers directly) for up to 2000
 *     frames, each with new inputs and batch; a left c2c and a strided
 *     c2r as commands too;
 *   - the frame chain (r2c 320 -> times a filter H -> c2r 320 -> energy)
 *     for 10000 frames with new x and H each time, y and the energy
 *     checked on every frame; again with the filter and the energy as
 *     team stages (the energy a team reduction), the items handed from
 *     stage to stage by block barriers only, no grid barrier; again with
 *     no filter or energy stage at all: the filter is the forward FFT's
 *     post statements, the energy what the inverse's contribute();
 *   - a c2c chain of 256 points the same way (post statements on the
 *     register path), reducing two values (sum |y|^2, max |y.re|); and
 *     the same chain as one round-trip kernel (the filter its between
 *     statements), in registers and with x of layout left (through
 *     shared memory).
 * FFTs are unnormalized (like cuFFT): a forward then inverse FFT is N
 * times the input.  Tolerance for an output of an N-point FFT:
 * 8 eps ceil(log2 N) times the sum of the moduli of its inputs (every
 * output is a sum of the inputs times unit twiddles; each of the
 * ~log2 N butterfly stages adds a few roundings).
 * Label gpu; exit 77 without a GPU or without MathDx (with the message
 * that says how to install it).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_gpu.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define MAXB 37
#define MAXN 1024
#define PI 3.14159265358979323846

enum { C2C, R2C, C2R };

static gg_context *ctx;
static gg_module *mod;
static int failures;

/* Where a view puts element i (part c: 0 re, 1 im; real: 0) of item b:
 * at b * s[0] + i * s[1] + c * s[2].  right: contiguous; left: the batch
 * fastest (re and im two planes); the others are layout "stride" views,
 * their strides passed at run time: pad (cuFFT's idist with 6 reals of
 * padding after each item), skip (a real view's every other value,
 * istride 2), bfirst (complex, the batch fastest and each element's re
 * and im nb apart), planes (complex: re and im planes, items padded). */
typedef enum { RIGHT, LEFT, PAD, SKIP, BFIRST, PLANES } layout;

typedef struct problem {
  const char *kernel;
  int n, type, inverse, f64;
  int one;      /* no batch extent: one FFT */
  int inplace;  /* input and output are one view */
  layout lay[2]; /* input, output */
} problem;

static const problem problems[] = {
  {"c16", 16, C2C, 0, 0, 0, 0, {RIGHT, RIGHT}},
  {"c12i", 12, C2C, 1, 0, 0, 0, {RIGHT, RIGHT}},
  {"c1000", 1000, C2C, 0, 0, 0, 0, {RIGHT, RIGHT}},
  {"z100", 100, C2C, 1, 1, 0, 1, {RIGHT, RIGHT}},
  {"z256", 256, C2C, 0, 1, 0, 0, {RIGHT, RIGHT}},
  {"r240", 240, R2C, 0, 0, 0, 0, {RIGHT, RIGHT}},
  {"d100r", 100, C2R, 1, 1, 0, 0, {RIGHT, RIGHT}},
  {"r1000", 1000, C2R, 1, 0, 0, 0, {RIGHT, RIGHT}},
  {"d12", 12, R2C, 0, 1, 0, 0, {RIGHT, RIGHT}},
  {"one", 240, C2C, 0, 0, 1, 0, {RIGHT, RIGHT}},
  {"c1024i", 1024, C2C, 1, 0, 0, 0, {RIGHT, RIGHT}},
  {"z1024", 1024, C2C, 0, 1, 0, 1, {RIGHT, RIGHT}},
  {"c256", 256, C2C, 0, 0, 0, 0, {RIGHT, RIGHT}},
  /* strided views: through shared memory at the views' own addresses */
  {"lc100", 100, C2C, 0, 0, 0, 0, {LEFT, RIGHT}},
  {"lc256i", 256, C2C, 1, 0, 0, 0, {LEFT, LEFT}},
  {"zs120", 120, C2C, 1, 1, 0, 1, {PAD, PAD}},
  {"rs1000", 1000, R2C, 0, 0, 0, 0, {SKIP, BFIRST}},
  {"ds320", 320, C2R, 1, 1, 0, 0, {PLANES, PAD}},
};

static gg_array *arr_x, *arr_y, *arr_s, *arr_h, *arr_e;
/* host copies in double: inputs, expected outputs, per-item tolerances */
static double hx[MAXB * MAXN * 2], want[MAXB * MAXN * 2], tol[MAXB];
static double hh[256 * 2], hs[MAXB * 256 * 2];

static uint32_t rng = 12345;
static double uniform(void) /* in [-1, 1), multiples of 2^-23: exact in f32 */
{
  rng = rng * 1664525u + 1013904223u;
  return (double)(rng >> 8) / (1 << 23) - 1;
}

/* reals per item on each side */
static int in_len(const problem *p) { return p->type == R2C ? p->n : 2 * (p->type == C2R ? p->n / 2 + 1 : p->n); }
static int out_len(const problem *p) { return p->type == C2R ? p->n : 2 * (p->type == R2C ? p->n / 2 + 1 : p->n); }
static int len_of(const problem *p, int side) { return side ? out_len(p) : in_len(p); }
static int complex_side(const problem *p, int side) { return p->type != (side ? C2R : R2C); }

/* The strides of side 0 (input) or 1 (output) at batch nb, in elements
 * (s[2]: 0 on a real side). */
static void strides(const problem *p, int side, int nb, long long s[3])
{
  const int cx = complex_side(p, side), parts = cx ? 2 : 1, l = len_of(p, side) / parts;
  const long long tab[][3] = {
    [RIGHT] = {(long long)l * parts, parts, cx},    [LEFT] = {1, nb, cx ? (long long)nb * l : 0},
    [PAD] = {(long long)l * parts + 6, parts, cx},  [SKIP] = {2LL * l + 3, 2, 0},
    [BFIRST] = {1, 2LL * nb, nb},                   [PLANES] = {l + 3, 1, nb * (l + 3LL)},
  };
  memcpy(s, tab[p->lay[side]], sizeof tab[0]);
}

/* Element i (a real's index within the item: complex element i / 2, part
 * i % 2) of item b of side `side` in its array. */
static size_t at(const problem *p, int side, int nb, int b, int i)
{
  long long s[3];
  strides(p, side, nb, s);
  if (!complex_side(p, side)) return (size_t)(b * s[0] + i * s[1]);
  return (size_t)(b * s[0] + (i / 2) * s[1] + (i % 2) * s[2]);
}

/* Every element of the arrays starts as this; where no view reaches it
 * must stay so (a store at a wrong address would change it). */
#define UNTOUCHED 4242.0
#define NELEMS (MAXB * MAXN * 2)
static unsigned char reached[NELEMS];

/* Sets every element of array a (of the problem's precision) to UNTOUCHED. */
static void clear(const problem *p, gg_array *a)
{
  for (size_t i = 0; i < NELEMS; i++) {
    if (p->f64) ((double *)gg_array_host(a))[i] = UNTOUCHED;
    else ((float *)gg_array_host(a))[i] = (float)UNTOUCHED;
  }
}

/* The complex value of input element j of an item (c2r: the full
 * Hermitian spectrum, X[N-k] = conj(X[k])). */
static void input_at(const problem *p, const double *in, int j, double *re, double *im)
{
  if (p->type == R2C) {
    *re = in[j];
    *im = 0;
  } else if (p->type == C2R && j > p->n / 2) {
    *re = in[2 * (p->n - j)];
    *im = -in[2 * (p->n - j) + 1];
  } else {
    *re = in[2 * j];
    *im = in[2 * j + 1];
  }
}

/* The DFT of one item, directly (O(N^2), twiddles from a table), and the
 * tolerance of its outputs. */
static double dft(const problem *p, const double *in, double *out)
{
  static double c[MAXN], s[MAXN];
  const int n = p->n;
  const double sign = p->inverse ? 1 : -1;
  for (int j = 0; j < n; j++) {
    c[j] = cos(2 * PI * j / n);
    s[j] = sign * sin(2 * PI * j / n);
  }
  double l1 = 0;
  for (int j = 0; j < n; j++) {
    double re, im;
    input_at(p, in, j, &re, &im);
    l1 += hypot(re, im);
  }
  const int nout = p->type == R2C ? n / 2 + 1 : n;
  for (int k = 0; k < nout; k++) {
    double ar = 0, ai = 0;
    for (int j = 0; j < n; j++) {
      double re, im;
      input_at(p, in, j, &re, &im);
      const int t = (int)((long long)j * k % n);
      ar += re * c[t] - im * s[t];
      ai += re * s[t] + im * c[t];
    }
    if (p->type == C2R) {
      out[k] = ar;
    } else {
      out[2 * k] = ar;
      out[2 * k + 1] = ai;
    }
  }
  const double eps = p->f64 ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
  return 8 * eps * ceil(log2((double)n)) * l1 + 1e-300;
}

/* New inputs for nb items, stored to the input array at the input
 * view's addresses (the rest of it, and the output array, UNTOUCHED);
 * the reference. */
static void fill(const problem *p, int nb, gg_array *dst, gg_array *out)
{
  const int li = in_len(p), h = p->n / 2;
  for (int b = 0; b < nb; b++) {
    double *in = hx + (size_t)b * li;
    for (int i = 0; i < li; i++) in[i] = uniform();
    if (p->type == C2R) { /* a real signal's spectrum: X[0], X[N/2] real */
      in[1] = 0;
      if (p->n % 2 == 0) in[2 * h + 1] = 0;
    }
    tol[b] = dft(p, in, want + (size_t)b * out_len(p));
  }
  clear(p, dst);
  if (out != dst) clear(p, out);
  void *x = gg_array_host(dst);
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < li; i++) {
      const size_t to = at(p, 0, nb, b, i);
      if (p->f64) ((double *)x)[to] = hx[(size_t)b * li + i];
      else ((float *)x)[to] = (float)hx[(size_t)b * li + i];
    }
}

static double load(const gg_array *a, int f64, size_t i)
{
  const void *p = gg_array_host((gg_array *)a);
  return f64 ? ((const double *)p)[i] : ((const float *)p)[i];
}

/* The outputs against the reference, read at the output view's
 * addresses; every other element of the output array still UNTOUCHED. */
static void verify(const problem *p, int nb, const gg_array *out, const char *where)
{
  const int lo = out_len(p);
  int bad = 0;
  memset(reached, 0, sizeof reached);
  for (int b = 0; b < nb && bad < 3; b++)
    for (int i = 0; i < lo && bad < 3; i++) {
      const size_t w = (size_t)b * lo + i, a = at(p, 1, nb, b, i);
      const double got = load(out, p->f64, a);
      reached[a] = 1;
      if (!(fabs(got - want[w]) <= tol[b])) {
        fprintf(stderr, "%s: %s (%d points) batch %d: item %d, output[%d] = %.17g, want %.17g "
                "(tolerance %.3g)\n", where, p->kernel, p->n, nb, b, i, got, want[w], tol[b]);
        bad++;
      }
    }
  for (size_t a = 0; a < NELEMS && bad < 3; a++)
    if (!reached[a] && load(out, p->f64, a) != UNTOUCHED) {
      fprintf(stderr, "%s: %s (%d points) batch %d: element %zu of the output array, outside "
              "the output view, was written: %.17g\n", where, p->kernel, p->n, nb, a,
              load(out, p->f64, a));
      bad++;
    }
  if (bad) failures++;
}

/* The strides of a side's view when its layout is "stride" (after them
 * in a[]); returns how many. */
static int stride_args(const problem *p, int side, int nb, gg_arg *a)
{
  if (p->lay[side] == RIGHT || p->lay[side] == LEFT) return 0;
  long long s[3];
  strides(p, side, nb, s);
  const int rank = complex_side(p, side) ? 3 : 2;
  for (int d = 0; d < rank; d++) a[d] = gg_arg_i64(s[d]);
  return rank;
}

/* gg_launch's order (gg.h): the views, the batch extent, then the strides
 * of each stride view. */
static int args_of(const problem *p, int nb, gg_arg *a)
{
  int n = 0;
  a[n++] = gg_arg_array(arr_x);
  if (!p->inplace) a[n++] = gg_arg_array(arr_y);
  if (!p->one) a[n++] = gg_arg_i64(nb);
  n += stride_args(p, 0, nb, a + n);
  if (!p->inplace) n += stride_args(p, 1, nb, a + n);
  return n;
}

/* Classic launches at batch 3, 1, 7, 37, then 37 on a 2-block grid. */
static void classic(const problem *p)
{
  static const int batches[] = {3, 1, 7, 37, 37};
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, p->kernel, &k));
  for (int t = 0; t < 5; t++) {
    const int nb = p->one ? 1 : batches[t];
    fill(p, nb, arr_x, arr_y);
    gg_arg a[9];
    const int na = args_of(p, nb, a);
    if (t == 4) CHECK_OK(gg_launch_grid(k, NULL, 2, a, na));
    else CHECK_OK(gg_launch(k, NULL, a, na));
    CHECK_OK(gg_device_sync(ctx));
    verify(p, nb, p->inplace ? arr_x : arr_y, t == 4 ? "classic, 2 blocks" : "classic");
  }
}

/* A session of the persistent kernel, the command's index, and where
 * (for messages). */
static gg_session *open_command(const char *persistent, const char *command, int *cmd,
                                char *where, size_t n)
{
  gg_session *s;
  CHECK_OK(gg_session_open(mod, persistent, NULL, &s));
  CHECK_OK(gg_session_command(s, command, cmd));
  snprintf(where, n, "%s, command %s, %d blocks", persistent, command, gg_session_blocks(s));
  return s;
}

static const problem *problem_named(const char *kernel)
{
  for (size_t i = 0; i < sizeof problems / sizeof *problems; i++)
    if (strcmp(problems[i].kernel, kernel) == 0) return &problems[i];
  fprintf(stderr, "no problem %s\n", kernel);
  exit(1);
}

/* An FFT kernel as a persistent command, new inputs each frame. */
static void command_frames(const char *persistent, const char *kernel, int nframes)
{
  const problem *p = problem_named(kernel);
  char where[128];
  int cmd;
  gg_session *s = open_command(persistent, kernel, &cmd, where, sizeof where);
  for (int f = 0; f < nframes && failures < 5; f++) {
    const int nb = 1 + f % 5;
    fill(p, nb, arr_x, arr_y);
    gg_arg a[9];
    const int na = args_of(p, nb, a);
    CHECK_OK(gg_session_run(s, cmd, a, na, WAIT_NS));
    verify(p, nb, p->inplace ? arr_x : arr_y, where);
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

/* ---- the frame: y = c2r(H * r2c(x)), e = sum of y^2 ---- */
#define FN 320
#define FH (FN / 2 + 1)

/* the CPU chain for nb items (x in hx), into want (y); returns the energy
 * and sets tol[b] for y and *tol_e for it */
static double chain_reference(int nb, double *tol_e)
{
  static const problem fwd = {"fwd", FN, R2C, 0, 0, 0, 0, {RIGHT, RIGHT}},
                       inv = {"inv", FN, C2R, 1, 0, 0, 0, {RIGHT, RIGHT}};
  double e = 0, ty_sum = 0, habs = 0;
  for (int k = 0; k < FH; k++) habs += hypot(hh[2 * k], hh[2 * k + 1]);
  for (int b = 0; b < nb; b++) {
    double *spec = hs + (size_t)b * FH * 2, *y = want + (size_t)b * FN;
    const double tx = dft(&fwd, hx + (size_t)b * FN, spec); /* error of each X[k] */
    for (int k = 0; k < FH; k++) {
      const double re = spec[2 * k], im = spec[2 * k + 1];
      spec[2 * k] = re * hh[2 * k] - im * hh[2 * k + 1];
      spec[2 * k + 1] = re * hh[2 * k + 1] + im * hh[2 * k];
    }
    const double ty = dft(&inv, spec, y); /* rounding of the inverse itself */
    /* each X[k]'s error reaches y through |H[k]| twice (k and N - k); the
       filter's own rounding (2 eps of X[k] H[k]) is under 0.1 of tx */
    tol[b] = 2.2 * tx * habs + ty;
    for (int j = 0; j < FN; j++) {
      e += y[j] * y[j];
      ty_sum += 2 * fabs(y[j]) * tol[b] + tol[b] * tol[b];
    }
  }
  *tol_e = ty_sum + 1e-12 * e;
  return e;
}

static void chain_frames(const char *persistent, const char *frame, int nframes)
{
  static const problem yview = {"chain", FN, C2R, 1, 0, 0, 0, {RIGHT, RIGHT}};
  char where[128];
  int cmd;
  gg_session *s = open_command(persistent, frame, &cmd, where, sizeof where);
  for (int f = 0; f < nframes && failures < 5; f++) {
    const int nb = 1 + f % 3;
    /* a new signal and a new filter each frame; H carries the 1/N the
       unnormalized c2r leaves out */
    float *x = gg_array_host(arr_x), *h = gg_array_host(arr_h);
    for (int i = 0; i < nb * FN; i++) x[i] = (float)(hx[i] = uniform());
    for (int k = 0; k < FH; k++) {
      const double g = (k < 20 + f % 100 ? 1.0 : 0.25 * uniform()) / FN;
      hh[2 * k] = (float)(g * cos(0.01 * k * (f % 7)));
      hh[2 * k + 1] = (float)(g * sin(0.01 * k * (f % 7)));
      if (k == 0 || k == FH - 1) hh[2 * k + 1] = 0; /* real at 0 and N/2: y stays real */
      h[2 * k] = (float)hh[2 * k];
      h[2 * k + 1] = (float)hh[2 * k + 1];
    }
    ((double *)gg_array_host(arr_e))[0] = NAN;
    clear(&yview, arr_y); /* verify: the chain writes y's nb items only */
    double tol_e;
    const double e = chain_reference(nb, &tol_e);
    gg_arg a[6] = {gg_arg_array(arr_x), gg_arg_array(arr_s), gg_arg_array(arr_h),
                   gg_arg_array(arr_y), gg_arg_array(arr_e), gg_arg_i64(nb)};
    CHECK_OK(gg_session_run(s, cmd, a, 6, WAIT_NS));
    verify(&yview, nb, arr_y, where);
    const double got = ((double *)gg_array_host(arr_e))[0];
    if (!(fabs(got - e) <= tol_e)) {
      fprintf(stderr, "%s: frame %d, batch %d: energy %.17g, want %.17g (tolerance %.3g)\n",
              where, f, nb, got, e, tol_e);
      failures++;
    }
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

/* ---- the c2c chain in registers: y = IFFT(H * FFT(x)), 256 points,
 * the filter and (sum |y|^2, max |y.re|) in the FFTs' post statements */
#define CN 256

/* frame: chain_c (two stages through S: args x, S, H, y, e), or
 * chain_rt / chain_rtl (one round-trip stage: x, H, y, e; x of layout
 * xlay) */
static void chain_c_frames(const char *persistent, const char *frame, layout xlay, int nframes)
{
  const problem fwd = {"cfwd_post", CN, C2C, 0, 0, 0, 0, {xlay, RIGHT}},
                inv = {"cinv_post", CN, C2C, 1, 0, 0, 0, {RIGHT, RIGHT}};
  const int staged = strcmp(frame, "chain_c") == 0;
  char where[128];
  int cmd;
  gg_session *s = open_command(persistent, frame, &cmd, where, sizeof where);
  for (int f = 0; f < nframes && failures < 5; f++) {
    const int nb = 1 + f % 4;
    float *h = gg_array_host(arr_h);
    fill(&fwd, nb, arr_x, arr_y); /* new x at its view's addresses, in hx too */
    double habs = 0;
    for (int k = 0; k < CN; k++) {
      const double g = (k < 10 + f % 50 ? 1.0 : 0.5 * uniform()) / CN;
      hh[2 * k] = (float)(g * cos(0.02 * k * (f % 5)));
      hh[2 * k + 1] = (float)(g * sin(0.02 * k * (f % 5)));
      h[2 * k] = (float)hh[2 * k];
      h[2 * k + 1] = (float)hh[2 * k + 1];
      habs += hypot(hh[2 * k], hh[2 * k + 1]);
    }
    double e = 0, ymax = 0, te = 0, tmax = 0;
    for (int b = 0; b < nb; b++) {
      double *spec = hs + (size_t)b * CN * 2, *y = want + (size_t)b * CN * 2;
      const double tx = dft(&fwd, hx + (size_t)b * CN * 2, spec);
      for (int k = 0; k < CN; k++) {
        const double re = spec[2 * k], im = spec[2 * k + 1];
        spec[2 * k] = re * hh[2 * k] - im * hh[2 * k + 1];
        spec[2 * k + 1] = re * hh[2 * k + 1] + im * hh[2 * k];
      }
      const double ty = dft(&inv, spec, y);
      tol[b] = 1.1 * tx * habs + ty; /* each X[k]'s error reaches y through |H[k]| once */
      if (tol[b] > tmax) tmax = tol[b];
      for (int j = 0; j < 2 * CN; j++) {
        e += y[j] * y[j];
        te += 2 * fabs(y[j]) * tol[b] + tol[b] * tol[b];
        if (j % 2 == 0 && fabs(y[j]) > ymax) ymax = fabs(y[j]);
      }
    }
    te += 1e-12 * e;
    double *got = gg_array_host(arr_e);
    got[0] = got[1] = NAN;
    clear(&inv, arr_y);
    gg_arg a[6] = {gg_arg_array(arr_x), gg_arg_array(arr_s), gg_arg_array(arr_h),
                   gg_arg_array(arr_y), gg_arg_array(arr_e), gg_arg_i64(nb)};
    if (!staged) memmove(a + 1, a + 2, 4 * sizeof *a); /* no S */
    CHECK_OK(gg_session_run(s, cmd, a, staged ? 6 : 5, WAIT_NS));
    verify(&inv, nb, arr_y, where);
    if (!(fabs(got[0] - e) <= te) || !(fabs(got[1] - ymax) <= tmax)) {
      fprintf(stderr, "%s: frame %d, batch %d: energy %.17g, want %.17g (tolerance %.3g); "
              "max |re| %.17g, want %.17g (tolerance %.3g)\n", where, f, nb, got[0], e, te,
              got[1], ymax, tmax);
      failures++;
    }
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_check_mathdx(ctx);
  CHECK_OK(gg_module_load(ctx, &gg_module_fft_gpu, &mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hx, &arr_x));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hx, &arr_y));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hs, &arr_s));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof hh, &arr_h));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 2 * sizeof(double), &arr_e));
  for (size_t i = 0; i < sizeof problems / sizeof *problems; i++) classic(&problems[i]);
  command_frames("p_one", "c256", 500);
  command_frames("p_many", "c256", 2000);
  command_frames("p_wide", "c1024i", 2000);
  command_frames("p_wide", "z1024", 1000);
  command_frames("p_strided", "lc256i", 1000);
  command_frames("p_strided", "ds320", 1000);
  chain_frames("p_one", "chain", 500);
  chain_frames("p_many", "chain", 10000);
  chain_frames("p_one", "chain_team", 500);
  chain_frames("p_many", "chain_team", 10000);
  chain_frames("p_one", "chain_post", 500);
  chain_frames("p_many", "chain_post", 10000);
  chain_c_frames("p_one", "chain_c", RIGHT, 500);
  chain_c_frames("p_many", "chain_c", RIGHT, 10000);
  chain_c_frames("p_one", "chain_rt", RIGHT, 500);
  chain_c_frames("p_many", "chain_rt", RIGHT, 10000);
  chain_c_frames("p_one", "chain_rtl", LEFT, 500);
  chain_c_frames("p_many", "chain_rtl", LEFT, 10000);
  gg_array_free(arr_x);
  gg_array_free(arr_y);
  gg_array_free(arr_s);
  gg_array_free(arr_h);
  gg_array_free(arr_e);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "test_fft_gpu: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_fft_gpu: ok\n");
  return 0;
}
