/* mathdx_common.h - what the benches against cuBLAS / cuFFT share
 * (mathdx_bench.c, fft_chain_bench.c): the check on a CUDA runtime or
 * library call, and the start (a context, MathDx present, or exit 77). */
#ifndef MATHDX_COMMON_H
#define MATHDX_COMMON_H
#include <stdio.h>
#include <stdlib.h>

#include "gg.h"

/* A CUDA runtime, cuBLAS or cuFFT call that must return 0 (success). */
#define CHECKC(call)                                                                       \
  do {                                                                                     \
    int st_ = (int)(call);                                                                 \
    if (st_) {                                                                             \
      fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call, st_);          \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

/* The iterations per row from argv[1] (at least 100), and a context on a
 * GPU with MathDx installed; otherwise says why and exits 77 (skipped). */
static inline gg_context *mathdx_bench_start(int argc, char **argv, int *iters)
{
  if (argc > 1) *iters = atoi(argv[1]);
  if (*iters < 100) *iters = 100;
  gg_context *ctx;
  if (gg_context_open(&ctx, NULL)) {
    fprintf(stderr, "no GPU: %s\n", gg_error_detail());
    exit(77);
  }
  char why[1600];
  if (!gg_mathdx_available(why, sizeof why)) {
    fprintf(stderr, "%s\n", why);
    exit(77);
  }
  return ctx;
}
#endif
