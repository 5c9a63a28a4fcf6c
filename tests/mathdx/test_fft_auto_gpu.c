/*
 * test_fft_auto_gpu - fft block = "auto" (tests/mathdx/fft_auto_gpu.lua)
 * on the GPU, at 384 points (not a power of two) and 512, on a batch of
 * 37 (odd):
 *   - the descriptor: each fft's variants are kernels "<name>_threads<t>"
 *     whose variant_of is 1 + its index and whose block is t; each frame's
 *     variants likewise; each variant frame is the one command of a
 *     persistent kernel "<p>_threads<t>" of block t;
 *   - every forward kernel (fwd and each variant), launched, against a CPU
 *     DFT in double: within 2^-18 of the input's norm per element;
 *   - every frame (round and each variant) as the command of its
 *     persistent kernel against the CPU: the FFT, x0.5, the unnormalized
 *     inverse give z * n / 2;
 *   - gg_session_tune(mod, "round<n>") with nothing named: the variant
 *     frames are among the candidates, on their persistent kernels, and
 *     the choice's frame computes what the CPU does.
 * Label gpu; exit 77 without a GPU or without MathDx.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "fft_auto_gpu.h"
#include "../gg_check.h"

enum { NB = 37, NMAX = 512 };
#define WAIT_NS 5000000000ll

static int failures;
static const gg_module_desc *md = &gg_module_fft_auto_gpu;
static float x0[NB * NMAX * 2];
static double dft[NB * NMAX * 2];

static float rnd(void) { return (float)((rand() / (RAND_MAX + 1.0)) * 2.0 - 1.0); }

static int kernel_index(const char *name)
{
  for (int i = 0; i < md->nkernels; i++)
    if (strcmp(md->kernels[i].name, name) == 0) return i;
  return -1;
}

static const gg_persistent_desc *persistent(const char *name)
{
  for (int i = 0; i < md->npersistent; i++)
    if (strcmp(md->persistent[i].name, name) == 0) return &md->persistent[i];
  return NULL;
}

/* got (n points, NB items, interleaved) against want x scale. */
static void check(const char *who, const float *got, const double *want, double scale, int n)
{
  int bad = 0;
  double worst = 0;
  for (int b = 0; b < NB; b++) {
    double norm = 0; /* the item's input norm x scale: the error's yardstick */
    for (int j = 0; j < 2 * n; j++) norm += (double)x0[b * 2 * n + j] * x0[b * 2 * n + j];
    norm = sqrt(norm) * sqrt((double)n) * fabs(scale);
    for (int j = 0; j < 2 * n; j++) {
      const int e = b * 2 * n + j;
      const double err = fabs(got[e] - scale * want[e]) / norm;
      if (!(err <= 0x1p-18) && bad++ < 3)
        fprintf(stderr, "%s: item %d element %d: %.9g, the CPU gives %.9g\n", who, b, j / 2,
                got[e], scale * want[e]);
      if (err > worst) worst = err;
    }
  }
  printf("%s: %s (worst error %.2g of the norm)\n", who, bad ? "WRONG" : "ok", worst);
  failures += bad != 0;
}

/* One frame of `command` on persistent kernel `kernel` (blocks 0: as
 * declared), z reset to x0 first. */
static void run_frame(gg_module *mod, const char *kernel, int blocks, const char *command,
                      gg_array *z, int n)
{
  memcpy(gg_array_host(z), x0, sizeof(float) * 2 * n * NB);
  const gg_arg args[2] = {gg_arg_array(z), gg_arg_i64(NB)};
  gg_session_options o = {0};
  o.blocks = blocks;
  gg_session *s;
  CHECK_OK(gg_session_open(mod, kernel, &o, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, command, &cmd));
  CHECK_OK(gg_session_run(s, cmd, args, 2, WAIT_NS));
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

/* The variants of kernel `base` ("<base>_threads<t>"): checked against
 * the descriptor's rules; their count. */
static int variants_of(const char *base)
{
  const int bi = kernel_index(base);
  int n = 0;
  for (int i = 0; bi >= 0 && i < md->nkernels; i++) {
    const gg_kernel_desc *kd = &md->kernels[i];
    if (kd->variant_of != bi + 1) continue;
    int t = 0;
    char want[96];
    if (sscanf(kd->name + strlen(base), "_threads%d", &t) != 1 || t % 32 ||
        (snprintf(want, sizeof want, "%s_threads%d", base, t), strcmp(want, kd->name))) {
      fprintf(stderr, "%s: variant %s is not named <name>_threads<t>\n", base, kd->name);
      failures++;
    }
    n++;
  }
  return bi < 0 ? -1 : n;
}

static void chain(gg_context *ctx, gg_module *mod, int n, int want_variants)
{
  char fwd[32], round[32], p[32];
  snprintf(fwd, sizeof fwd, "fwd%d", n);
  snprintf(round, sizeof round, "round%d", n);
  snprintf(p, sizeof p, "p%d", n);
  const int kv = variants_of(fwd), fv = variants_of(round);
  printf("%s: %d variant(s); %s: %d variant frame(s)\n", fwd, kv, round, fv);
  if (kv != want_variants || fv != want_variants) failures++;

  for (int b = 0; b < NB; b++) /* the CPU's DFT, in double */
    for (int k = 0; k < n; k++) {
      double re = 0, im = 0;
      for (int j = 0; j < n; j++) {
        const double a = -2 * M_PI * (double)((long)j * k % n) / n;
        const double xr = x0[(b * n + j) * 2], xi = x0[(b * n + j) * 2 + 1];
        re += xr * cos(a) - xi * sin(a);
        im += xr * sin(a) + xi * cos(a);
      }
      dft[(b * n + k) * 2] = re, dft[(b * n + k) * 2 + 1] = im;
    }
  static double ident[NB * NMAX * 2];
  for (int e = 0; e < NB * n * 2; e++) ident[e] = x0[e];

  gg_array *ax, *ay;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * 2 * n * NB, &ax));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * 2 * n * NB, &ay));
  memcpy(gg_array_host(ax), x0, sizeof(float) * 2 * n * NB);
  gg_stream *st;
  CHECK_OK(gg_stream_open(ctx, &st));
  const int fi = kernel_index(fwd);
  for (int i = 0; i < md->nkernels; i++) {
    if (i != fi && md->kernels[i].variant_of != fi + 1) continue;
    gg_kernel *k;
    CHECK_OK(gg_kernel_get(mod, md->kernels[i].name, &k));
    float *y = gg_array_host(ay);
    for (int e = 0; e < 2 * n * NB; e++) y[e] = NAN;
    const gg_arg args[3] = {gg_arg_array(ax), gg_arg_array(ay), gg_arg_i64(NB)};
    CHECK_OK(gg_launch(k, st, args, 3));
    CHECK_OK(gg_stream_sync(st));
    check(md->kernels[i].name, y, dft, 1, n);
  }
  gg_stream_free(st);

  /* each frame on its persistent kernel: z n / 2 */
  const int ri = kernel_index(round);
  for (int i = 0; i < md->nkernels; i++) {
    if (i != ri && md->kernels[i].variant_of != ri + 1) continue;
    char on[64] = "";
    int t = 0;
    if (i == ri) snprintf(on, sizeof on, "%s", p);
    else if (sscanf(md->kernels[i].name + strlen(round), "_threads%d", &t) == 1)
      snprintf(on, sizeof on, "%s_threads%d", p, t);
    const gg_persistent_desc *pd = persistent(on);
    if (!pd || pd->ncommands != 1 || pd->commands[0] != i || (t && pd->block_size != t)) {
      fprintf(stderr, "%s: no persistent kernel %s of block %d with it as its one command\n",
              md->kernels[i].name, on, t);
      failures++;
      continue;
    }
    run_frame(mod, on, 0, md->kernels[i].name, ay, n);
    check(md->kernels[i].name, gg_array_host(ay), ident, n / 2.0, n);
  }

  memcpy(gg_array_host(ay), x0, sizeof(float) * 2 * n * NB);
  const gg_arg args[2] = {gg_arg_array(ay), gg_arg_i64(NB)};
  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, round, args, 2, NULL, &t));
  gg_tuned_print(&t, stdout);
  int rows = 0;
  for (int i = 0; i < t.nrows; i++)
    rows += strncmp(t.row[i].command, round, strlen(round)) == 0 &&
            strstr(t.row[i].command, "_threads") != NULL &&
            strstr(t.row[i].kernel, "_threads") != NULL;
  if (rows < fv) {
    fprintf(stderr, "tune %s: %d rows of variant frames for %d\n", round, rows, fv);
    failures++;
  }
  run_frame(mod, t.kernel, t.blocks, t.command, ay, n);
  char who[160];
  snprintf(who, sizeof who, "the tuner's choice for %s (%s %s, %d blocks)", round, t.kernel,
           t.command, t.blocks);
  check(who, gg_array_host(ay), ident, n / 2.0, n);
  gg_array_free(ax);
  gg_array_free(ay);
}

int main(void)
{
  gg_context *ctx = gg_check_open(NULL);
  char why[1600];
  if (!gg_mathdx_available(why, sizeof why)) gg_check_skip("%s", why);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_fft_auto_gpu, &mod));
  srand(11);
  for (int e = 0; e < NB * NMAX * 2; e++) x0[e] = rnd();
  chain(ctx, mod, 384, 1);
  chain(ctx, mod, 512, 3);
  gg_module_free(mod);
  gg_context_free(ctx);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
