/* gg_check.h - the GPU tests' (and benchmarks') assertion on a libgg call: on failure print
 * where, the call, its status and gg_error_detail(), and exit 1. */
#ifndef GG_TEST_GG_CHECK_H
#define GG_TEST_GG_CHECK_H

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

#endif
