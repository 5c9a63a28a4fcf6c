/* check.h - the persistent tests' assertion: print where, and exit 1. */
#ifndef GG_TEST_CHECK_H
#define GG_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                              \
  do {                                                                        \
    if (!(c)) {                                                               \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);  \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

#endif
