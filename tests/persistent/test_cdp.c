/*
 * test_cdp.c - device-side launch (templates/cuda/cdp.cuh, runtime/link.c).
 *
 *   test_cdp link   NVRTC -rdc + nvJitLink + libcudadevrt for sm_90 with no
 *                   device (runs everywhere; 77 without NVRTC/nvJitLink),
 *                   and the refusals (HIP arch, PTX arch, a compile error).
 *   test_cdp        on a GPU (label gpu; 77 without one): a one-thread
 *                   parent launches increment / sum / empty children per
 *                   frame; every sum and the final array are compared with
 *                   a CPU model, at sizes that are and are not powers of
 *                   two.  GG_FRAMES scales the frames (default 3000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp_host.h"
#include "gg.h"
#include "../expect.h"
#include "../gg_check.h"

/* ---- the offline half ---- */

static int test_link(void) {
  char err[600];
  char *src = cdp_read_source(err, sizeof err);
  if (!src) {
    printf("FAIL: %s\n", err);
    return 1;
  }
  gg_compile_result r;
  gg_status st = gg_compile_rdc("sm_90", "cdp.cuh", src, cdp_options, &r);
  if (st == GG_ERR_NO_LIBRARY) {
    printf("skipped: %s\n", r.log ? r.log : "no NVRTC / nvJitLink");
    gg_compile_result_free(&r);
    free(src);
    return 77;
  }
  EXPECT(st == GG_OK, "sm_90 link: %s\n%s", gg_strerror(st), r.log ? r.log : "");
  /* a loadable cubin is an ELF file */
  EXPECT(r.binary_size > 4 && !memcmp(r.binary, "\177ELF", 4), "linked output is not an ELF cubin");
  if (!st) printf("ok: linked cubin for sm_90, %zu bytes\n", r.binary_size);
  gg_compile_result_free(&r);

  /* a plain compile of the same source must fail: the device-side launch
   * needs -rdc, which is why link.c exists */
  st = gg_compile(GG_BACKEND_CUDA, "sm_90", "cdp.cuh", src, cdp_options, &r);
  EXPECT(st == GG_ERR_COMPILE, "plain NVRTC compile of a device launch: %s", gg_strerror(st));
  gg_compile_result_free(&r);

  st = gg_compile_rdc("gfx90a", "cdp.cuh", src, NULL, &r);
  EXPECT(st == GG_ERR_UNSUPPORTED && r.log && strstr(r.log, "CUDA only"), "HIP arch: %s",
         gg_strerror(st));
  gg_compile_result_free(&r);
  st = gg_compile_rdc("compute_90", "cdp.cuh", src, NULL, &r);
  EXPECT(st == GG_ERR_UNSUPPORTED && r.log && strstr(r.log, "sm_XX"), "PTX arch: %s",
         gg_strerror(st));
  gg_compile_result_free(&r);
  st = gg_compile_rdc("sm_90", "bad.cu", "extern \"C\" __global__ void k() { nope; }", NULL, &r);
  EXPECT(st == GG_ERR_COMPILE && r.log && strstr(r.log, "nope"), "compile error: %s",
         gg_strerror(st));
  gg_compile_result_free(&r);
  st = gg_compile_rdc(NULL, "x", src, NULL, &r);
  EXPECT(st == GG_ERR_INVALID, "NULL arch: %s", gg_strerror(st));
  gg_compile_result_free(&r);
  free(src);
  return failures ? 1 : 0;
}

/* ---- on the GPU ---- */

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

/* Frames of random commands against a CPU model of x. */
static void run_case(gg_context *ctx, long long n_inc, long long n_sum, int frames, int tail) {
  long long n = n_inc > n_sum ? n_inc : n_sum;
  int *model = malloc((size_t)n * sizeof *model), *back = malloc((size_t)n * sizeof *back);
  if (!model || !back) {
    failures++;
    free(model);
    free(back);
    return;
  }
  for (long long i = 0; i < n; i++) model[i] = (int)((i * 7) % 13) - 6;
  cdp_loop L;
  gg_status st = cdp_open(&L, ctx, model, n, n_inc, n_sum);
  if (!st) st = cdp_start(&L, tail);
  EXPECT(st == GG_OK, "inc %lld sum %lld: open: %s: %s", n_inc, n_sum, gg_strerror(st), L.err);
  uint32_t seed = (uint32_t)(n_inc * 31 + n_sum);
  int counts[4] = {0}, bad_sums = 0;
  for (int f = 0; !st && f < frames; f++) {
    int cmd = 1 + (int)(lcg(&seed) % 3);
    st = cdp_frame(&L, cmd, 2000);
    EXPECT(st == GG_OK, "inc %lld sum %lld: frame %d: %s", n_inc, n_sum, f, L.err);
    if (st) break;
    counts[cmd]++;
    if (cmd == CDP_INC)
      for (long long i = 0; i < n_inc; i++) model[i]++;
    if (cmd == CDP_SUM) {
      int64_t want = 0;
      for (long long i = 0; i < n_sum; i++) want += model[i];
      if (cdp_sum_result(&L) != want && bad_sums++ < 5)
        printf("FAIL: inc %lld sum %lld frame %d: sum %lld, want %lld\n", n_inc, n_sum, f,
               (long long)cdp_sum_result(&L), (long long)want);
    }
  }
  EXPECT(bad_sums == 0, "inc %lld sum %lld: %d wrong sums", n_inc, n_sum, bad_sums);
  gg_status cst = cdp_close_keep_x(&L, back, n);
  EXPECT(cst == GG_OK, "inc %lld sum %lld: close: %s", n_inc, n_sum, gg_strerror(cst));
  long long wrong = 0;
  for (long long i = 0; !cst && i < n; i++) wrong += back[i] != model[i];
  EXPECT(wrong == 0, "inc %lld sum %lld: %lld elements differ from the model", n_inc, n_sum, wrong);
  if (!st && !cst && !wrong && !bad_sums)
    printf("ok: %s parent, inc %lld sum %lld: %d frames (%d empty, %d inc, %d sum) match the "
           "CPU model\n", tail ? "tail-relaunched" : "long-lived", n_inc, n_sum, frames, counts[CDP_EMPTY], counts[CDP_INC], counts[CDP_SUM]);
  free(model);
  free(back);
}

/* An unknown command is answered with an error, not a hang. */
static void bad_command(gg_context *ctx) {
  cdp_loop L;
  gg_status st = cdp_open(&L, ctx, NULL, 16, 16, 16);
  if (!st) st = cdp_start(&L, 0);
  if (!st) st = cdp_frame(&L, 7, 2000);
  EXPECT(st == GG_ERR_LAUNCH, "unknown command: %s (%s)", gg_strerror(st), L.err);
  if (st == GG_ERR_LAUNCH) printf("ok: unknown command -> %s\n", L.err);
  st = cdp_close(&L);
  EXPECT(st == GG_OK, "close after an unknown command: %s", gg_strerror(st));
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "link")) return test_link();
  gg_context *ctx = gg_check_open(NULL);
  printf("device: %s (%s)\n", gg_context_device_name(ctx), gg_context_arch(ctx));
  const char *env = getenv("GG_FRAMES");
  int frames = env ? atoi(env) : 3000;
  if (frames <= 0) frames = 3000;
  for (int tail = 0; tail < 2; tail++) {
    run_case(ctx, 32768, 1024, frames, tail);  /* the benchmark's sizes */
    run_case(ctx, 32845, 1000, frames, tail);  /* neither a power of two */
    run_case(ctx, 1, 1, frames / 10 + 1, tail);
    run_case(ctx, 1000003, 4099, frames / 10 + 1, tail); /* 3907 blocks per increment */
  }
  bad_command(ctx);
  gg_context_free(ctx);
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
