/*
 * test_tile_auto_gpu - gemm tile = "auto" (tests/mathdx/tile_auto_gpu.lua)
 * on the GPU:
 *   - the descriptor: mm's variants are kernels named mm_tile<tm>x<tn>x<tk>
 *     whose variant_of is 1 + mm's index, at least one of them;
 *   - every kernel (mm and each variant), launched, against a CPU C = A B
 *     in double at 200 x 136 x 72 (no side a multiple of the tiles): within
 *     K 2^-22 of sum_p |a_ip| |b_pj| (f32 products and sums);
 *   - gg_session_tune(mod, "mm") with no alternatives named: the variants'
 *     rows are among the candidates on both persistent kernels, and the
 *     choice's frame computes C as the CPU does;
 *   - frame fr (mm, then C halved): its variant frames fr_tile<...>
 *     (variant_of 1 + fr's index, one per variant of mm), each run as a
 *     command of "many" against the CPU's C / 2, and gg_session_tune(mod,
 *     "fr") measuring them beside fr, its choice checked the same way.
 * Label gpu; exit 77 without a GPU or without MathDx.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "tile_auto_gpu.h"
#include "../gg_check.h"

enum { M = 200, N = 136, K = 72 };
#define WAIT_NS 5000000000ll

static int failures;
static double want[M * N], mag[M * N];

static float rnd(void) { return (float)((rand() / (RAND_MAX + 1.0)) * 2.0 - 1.0); }

static void check_c(const char *who, const float *c, double scale)
{
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < M * N; i++) {
    double e = fabs(c[i] - scale * want[i]) / (mag[i] > 0 ? scale * mag[i] : 1);
    if (!(e <= K * 0x1p-22)) {
      if (bad++ < 3)
        fprintf(stderr, "%s: C[%d][%d] = %.9g, the CPU gives %.9g\n", who, i / N, i % N, c[i],
                scale * want[i]);
    }
    if (e > worst) worst = e;
  }
  printf("%s: %s (worst error %.2g of the terms' magnitude)\n", who, bad ? "WRONG" : "ok", worst);
  failures += bad != 0;
}

/* One frame of command `command` on persistent kernel `kernel` (blocks:
 * 0 = as the module says), in a session of its own. */
static void run_frame(gg_module *mod, const char *kernel, int blocks, const char *command,
                      const gg_arg *args)
{
  gg_session_options o = {0};
  o.blocks = blocks;
  gg_session *s;
  CHECK_OK(gg_session_open(mod, kernel, &o, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, command, &cmd));
  CHECK_OK(gg_session_run(s, cmd, args, 3, WAIT_NS));
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
}

int main(void)
{
  gg_context *ctx = gg_check_open(NULL);
  char why[1600];
  if (!gg_mathdx_available(why, sizeof why)) gg_check_skip("%s", why);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_tile_auto_gpu, &mod));
  const gg_module_desc *md = &gg_module_tile_auto_gpu;
  int base = -1, fr = -1, variants = 0, frames = 0;
  for (int i = 0; i < md->nkernels; i++) {
    if (strcmp(md->kernels[i].name, "mm") == 0) base = i;
    if (strcmp(md->kernels[i].name, "fr") == 0) fr = i;
  }
  for (int i = 0; i < md->nkernels; i++) {
    const gg_kernel_desc *kd = &md->kernels[i];
    if (!kd->variant_of) continue;
    const int of_mm = kd->variant_of == base + 1 && !strncmp(kd->name, "mm_tile", 7);
    const int of_fr = kd->variant_of == fr + 1 && !strncmp(kd->name, "fr_tile", 7);
    variants += of_mm, frames += of_fr;
    if (!of_mm && !of_fr)
      failures++, fprintf(stderr, "kernel %s: variant_of %d, mm is %d, fr %d\n", kd->name,
                          kd->variant_of, base, fr);
  }
  printf("descriptor: mm is kernel %d, %d variant(s); fr %d, %d variant frame(s)\n", base,
         variants, fr, frames);
  if (base < 0 || fr < 0 || variants < 1 || frames != variants) failures++;

  gg_array *aa, *ab, *ac;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * M * K, &aa));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * K * N, &ab));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * M * N, &ac));
  float *a = gg_array_host(aa), *b = gg_array_host(ab), *c = gg_array_host(ac);
  srand(7);
  for (int i = 0; i < M * K; i++) a[i] = rnd();
  for (int i = 0; i < K * N; i++) b[i] = rnd();
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0, m = 0;
      for (int p = 0; p < K; p++) {
        s += (double)a[i * K + p] * b[p * N + j];
        m += fabs((double)a[i * K + p] * b[p * N + j]);
      }
      want[i * N + j] = s, mag[i * N + j] = m;
    }
  const gg_arg args[3] = {gg_arg_array(aa), gg_arg_array(ab), gg_arg_array(ac)};
  gg_stream *st;
  CHECK_OK(gg_stream_open(ctx, &st));
  for (int i = 0; i < md->nkernels; i++) {
    if (i != base && md->kernels[i].variant_of != base + 1) continue;
    gg_kernel *k;
    CHECK_OK(gg_kernel_get(mod, md->kernels[i].name, &k));
    for (int e = 0; e < M * N; e++) c[e] = NAN;
    CHECK_OK(gg_launch(k, st, args, 3));
    CHECK_OK(gg_stream_sync(st));
    check_c(md->kernels[i].name, c, 1);
  }
  gg_stream_free(st);

  /* fr and each variant frame as commands of "many": C = A B / 2 */
  for (int i = 0; i < md->nkernels; i++) {
    if (i != fr && md->kernels[i].variant_of != fr + 1) continue;
    for (int e = 0; e < M * N; e++) c[e] = NAN;
    run_frame(mod, "many", 0, md->kernels[i].name, args);
    check_c(md->kernels[i].name, c, 0.5);
  }

  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, "mm", args, 3, NULL, &t));
  gg_tuned_print(&t, stdout);
  int rows_of_variants = 0;
  for (int i = 0; i < t.nrows; i++) rows_of_variants += strncmp(t.row[i].command, "mm_tile", 7) == 0;
  if (rows_of_variants < 2 * variants) { /* on "one" once each, on "many" at several counts */
    fprintf(stderr, "tune: %d rows of variants for %d variants\n", rows_of_variants, variants);
    failures++;
  }
  for (int e = 0; e < M * N; e++) c[e] = NAN;
  run_frame(mod, t.kernel, t.blocks, t.command, args);
  char who[160];
  snprintf(who, sizeof who, "the tuner's choice (%s %s, %d blocks) as a frame", t.kernel,
           t.command, t.blocks);
  check_c(who, c, 1);

  CHECK_OK(gg_session_tune(mod, "fr", args, 3, NULL, &t));
  gg_tuned_print(&t, stdout);
  int rows_of_frames = 0;
  for (int i = 0; i < t.nrows; i++) rows_of_frames += strncmp(t.row[i].command, "fr_tile", 7) == 0;
  if (rows_of_frames < frames) {
    fprintf(stderr, "tune fr: %d rows of variant frames for %d\n", rows_of_frames, frames);
    failures++;
  }
  for (int e = 0; e < M * N; e++) c[e] = NAN;
  run_frame(mod, t.kernel, t.blocks, t.command, args);
  snprintf(who, sizeof who, "the tuner's choice for fr (%s %s, %d blocks)", t.kernel, t.command,
           t.blocks);
  check_c(who, c, 0.5);
  gg_array_free(aa);
  gg_array_free(ab);
  gg_array_free(ac);
  gg_module_free(mod);
  gg_context_free(ctx);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
