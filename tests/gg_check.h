/* gg_check.h - what the GPU tests (and benchmarks) share:
 *   CHECK_OK(call)           a libgg call that must succeed: on failure print
 *                            where, the call, its status and gg_error_detail(),
 *                            and exit 1;
 *   gg_check_open(opts)      the opening: a context, or exit 77 (skipped) with
 *                            the reason where there is no GPU;
 *   gg_check_skip(fmt, ...)  exit 77 with a reason of the test's own;
 *   gg_check_mathdx(ctx)     exit 77 unless MathDx is installed.
 * 77 is the tests' SKIP_RETURN_CODE: ctest reports the test as skipped, not
 * passed, so a machine without a GPU never counts as a pass. */
#ifndef GG_TEST_GG_CHECK_H
#define GG_TEST_GG_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gg.h"

#define CHECK_OK(call)                                                                     \
  do {                                                                                     \
    gg_status st_ = (call);                                                                \
    if (st_) {                                                                             \
      fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call, gg_strerror(st_), \
              gg_error_detail());                                                          \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

/* Print "skipped: " and the reason, and exit 77. */
static inline void gg_check_skip(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
static inline void gg_check_skip(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  printf("skipped: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  fflush(stdout);
  exit(77);
}

/* A context opened with opts (NULL: the defaults).  No GPU to open - no
 * driver library (GG_ERR_NO_LIBRARY) or no device (GG_ERR_NO_DEVICE) - is a
 * skip; any other failure to open is the test's failure (exit 1), so a
 * broken driver or context never passes as "no GPU". */
static inline gg_context *gg_check_open(const gg_context_options *opts)
{
  gg_context *ctx = NULL;
  gg_status st = gg_context_open(&ctx, opts);
  if (st == GG_ERR_NO_LIBRARY || st == GG_ERR_NO_DEVICE)
    gg_check_skip("no GPU: %s: %s", gg_strerror(st), gg_error_detail());
  if (st) {
    fprintf(stderr, "gg_context_open: %s: %s\n", gg_strerror(st), gg_error_detail());
    exit(1);
  }
  return ctx;
}

/* For the tests of gemm and fft kernels: skip (freeing ctx first) unless
 * MathDx is installed, with gg_mathdx_available's reason. */
static inline void gg_check_mathdx(gg_context *ctx)
{
  char why[1600];
  if (gg_mathdx_available(why, sizeof why))
    return;
  gg_context_free(ctx);
  gg_check_skip("%s", why);
}

#endif
