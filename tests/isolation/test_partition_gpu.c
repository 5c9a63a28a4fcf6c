/*
 * test_partition_gpu.c - a context opened on an SM partition
 * (gg_context_options.sm_count, a CUDA green context) keeps its work on
 * its SMs, and the two sides of one split (sm_rest) never share one.
 * Label gpu; exit 77 without a GPU or without green contexts.
 *
 *   1. context A: sm_count = 16 (at least 16 SMs, fewer than the device);
 *      context B: the rest.  A + B <= the device's SMs.
 *   2. in each: a classic launch over N elements records the SM of every
 *      element (%smid): y = 2x + 1 is checked, and every SM seen must be
 *      one of the context's - at most sm_count distinct, none in both.
 *   3. a persistent session (many_blocks, blocks left to the occupancy
 *      API) on A: its grid is sized for A's SMs, so it fits and runs; 200
 *      frames with new inputs, each checked, every SM A's.  On the whole
 *      device's count it would not be co-resident and the open would fail.
 * N is not a power of two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "partition_gpu.h"
#include "../gg_check.h"

#define N 100003
#define MAX_SM 1024

typedef struct side {
  gg_context *ctx;
  gg_module *mod;
  gg_array *x, *y, *sm;
  char seen[MAX_SM]; /* SMs that ran an element */
} side;

static void open_side(side *s)
{
  CHECK_OK(gg_module_load(s->ctx, &gg_module_partition_gpu, &s->mod));
  CHECK_OK(gg_array_alloc(s->ctx, GG_SPACE_MAPPED, N * 4, &s->x));
  CHECK_OK(gg_array_alloc(s->ctx, GG_SPACE_MAPPED, N * 4, &s->y));
  CHECK_OK(gg_array_alloc(s->ctx, GG_SPACE_MAPPED, N * 4, &s->sm));
}

static void fill(side *s, int salt)
{
  float *x = gg_array_host(s->x);
  int *sm = gg_array_host(s->sm);
  for (int i = 0; i < N; i++) x[i] = (float)((i * 13 + salt) % 101), sm[i] = -1;
}

/* y = 2x + 1 everywhere; every element's SM recorded in seen. */
static void check(side *s, const char *what)
{
  const float *x = gg_array_host(s->x), *y = gg_array_host(s->y);
  const int *sm = gg_array_host(s->sm);
  for (int i = 0; i < N; i++) {
    if (y[i] != 2.0f * x[i] + 1.0f || sm[i] < 0 || sm[i] >= MAX_SM) {
      fprintf(stderr, "%s: element %d: y = %g (want %g), sm = %d\n", what, i, y[i],
              2.0f * x[i] + 1.0f, sm[i]);
      exit(1);
    }
    s->seen[sm[i]] = 1;
  }
}

static int count_seen(const side *s)
{
  int n = 0;
  for (int i = 0; i < MAX_SM; i++) n += s->seen[i];
  return n;
}

/* 1 (and says which) when an SM ran work of both sides of the split. */
static int shared_sm(const side *a, const side *b, const char *what)
{
  for (int i = 0; i < MAX_SM; i++)
    if (a->seen[i] && b->seen[i]) {
      fprintf(stderr, "%s: SM %d ran work of both sides of the split\n", what, i);
      return 1;
    }
  return 0;
}

static void launch(side *s)
{
  gg_kernel *k;
  gg_stream *st;
  CHECK_OK(gg_kernel_get(s->mod, "where", &k));
  CHECK_OK(gg_stream_open(s->ctx, &st));
  fill(s, 1);
  gg_arg a[4] = {gg_arg_array(s->x), gg_arg_array(s->y), gg_arg_array(s->sm), gg_arg_i64(N)};
  CHECK_OK(gg_launch(k, st, a, 4));
  CHECK_OK(gg_stream_sync(st));
  check(s, "launch");
  gg_stream_free(st);
}

static void session(side *s)
{
  gg_session *se;
  gg_session_options opt = {.buffering = 1};
  CHECK_OK(gg_session_open(s->mod, "whole", &opt, &se));
  int cmd;
  CHECK_OK(gg_session_command(se, "where", &cmd));
  for (int f = 0; f < 200; f++) {
    fill(s, f);
    gg_arg a[4] = {gg_arg_array(s->x), gg_arg_array(s->y), gg_arg_array(s->sm), gg_arg_i64(N)};
    CHECK_OK(gg_session_start(se, cmd, a, 4, NULL));
    CHECK_OK(gg_session_wait(se, 2000000000));
    check(s, "session frame");
  }
  CHECK_OK(gg_session_terminate(se));
  gg_session_free(se);
}

int main(void)
{
  gg_context *whole = gg_check_open(NULL);
  int total = gg_context_sm_count(whole);
  gg_context_free(whole);

  side a = {0}, b = {0};
  gg_context_options oa = {.sm_count = 16}, ob = {.sm_count = 16, .sm_rest = 1};
  gg_status st = gg_context_open(&a.ctx, &oa);
  if (st == GG_ERR_UNSUPPORTED)
    gg_check_skip("%s", gg_error_detail());
  CHECK_OK(st);
  CHECK_OK(gg_context_open(&b.ctx, &ob));
  int na = gg_context_sm_count(a.ctx), nb = gg_context_sm_count(b.ctx);
  printf("device %d SMs; partition A %d SMs, the rest B %d SMs\n", total, na, nb);
  if (na < 16 || na >= total || nb < 1 || na + nb > total) {
    fprintf(stderr, "partition sizes wrong: A %d, B %d of %d\n", na, nb, total);
    return 1;
  }
  open_side(&a);
  open_side(&b);
  launch(&a);
  launch(&b);
  int sa = count_seen(&a), sb = count_seen(&b);
  printf("classic launch: A ran on %d SMs, B on %d\n", sa, sb);
  if (sa > na || sb > nb) {
    fprintf(stderr, "a context ran on more SMs than its partition holds\n");
    return 1;
  }
  if (shared_sm(&a, &b, "classic launches")) return 1;
  session(&a);
  int sa2 = count_seen(&a);
  printf("persistent session on A: %d SMs in all\n", sa2);
  if (sa2 > na) {
    fprintf(stderr, "the session ran outside A's partition\n");
    return 1;
  }
  if (shared_sm(&a, &b, "A's session and B's launch")) return 1;
  gg_context_free(a.ctx);
  gg_context_free(b.ctx);
  printf("ok\n");
  return 0;
}
