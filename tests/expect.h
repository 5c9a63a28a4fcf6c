/* expect.h - the tests' soft assertion: EXPECT(cond, fmt, ...) prints
 * where and why when cond is false, counts it in `failures`, and goes on,
 * so one run reports every broken case; main returns failures != 0.
 * CHECK(cond) is EXPECT with the condition's own text as the message. */
#ifndef GG_TEST_EXPECT_H
#define GG_TEST_EXPECT_H

#include <stdio.h>

static int failures;

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                  \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
    }                                                                                              \
  } while (0)

#define CHECK(cond) EXPECT(cond, "CHECK(%s) failed", #cond)

#endif
