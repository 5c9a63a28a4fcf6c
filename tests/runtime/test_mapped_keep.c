/* The mapped buffers a context keeps for the next session's mailbox
 * (runtime/mapped_keep.c), without a GPU: what is kept, what is taken
 * (the smallest that fits, each once), the limits (GGR_KEEP_MAX buffers,
 * none over GGR_KEEP_BYTES), and several threads keeping and taking at
 * once (no buffer handed out twice, none lost; TSan-free by design: one
 * lock).  The buffers are plain host memory here: nothing is mapped. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "../expect.h"

enum { THREADS = 4, ROUNDS = 20000 };
static gg_context ctx;

static void *churn(void *arg)
{
  char *mine = arg; /* this thread's buffer: taken back by someone, or kept */
  size_t got = 0;
  void *held = mine;
  for (int i = 0; i < ROUNDS; i++) {
    if (held && ggr_mapped_keep(&ctx, held, 4096)) held = NULL;
    if (!held) held = ggr_mapped_take(&ctx, 4096, &got);
    if (held) { /* while held, no one else has it */
      memset(held, (int)(intptr_t)arg & 0xff, 4096);
      if (((char *)held)[4095] != (char)((intptr_t)arg & 0xff)) return (void *)1;
    }
  }
  return held; /* the one it ends with (or NULL) */
}

int main(void)
{
  pthread_mutex_init(&ctx.kept_lock, NULL);
  size_t got = 0;
  char a[100], b[200], c[300];
  CHECK(ggr_mapped_take(&ctx, 1, &got) == NULL); /* nothing kept yet */
  CHECK(ggr_mapped_keep(&ctx, c, sizeof c) == 1);
  CHECK(ggr_mapped_keep(&ctx, a, sizeof a) == 1);
  CHECK(ggr_mapped_keep(&ctx, b, sizeof b) == 1);
  CHECK(ggr_mapped_take(&ctx, 150, &got) == b && got == sizeof b); /* the smallest that fits */
  CHECK(ggr_mapped_take(&ctx, 150, &got) == c && got == sizeof c);
  CHECK(ggr_mapped_take(&ctx, 150, &got) == NULL); /* a is too small */
  CHECK(ggr_mapped_take(&ctx, 100, &got) == a && got == sizeof a);
  CHECK(ctx.nkept == 0);

  /* at most GGR_KEEP_MAX, none larger than GGR_KEEP_BYTES */
  char many[GGR_KEEP_MAX + 1][16];
  for (int i = 0; i < GGR_KEEP_MAX; i++) CHECK(ggr_mapped_keep(&ctx, many[i], 16) == 1);
  CHECK(ggr_mapped_keep(&ctx, many[GGR_KEEP_MAX], 16) == 0);
  for (int i = 0; i < GGR_KEEP_MAX; i++) CHECK(ggr_mapped_take(&ctx, 16, &got) != NULL);
  CHECK(ggr_mapped_keep(&ctx, a, (size_t)GGR_KEEP_BYTES + 1) == 0);
  CHECK(ctx.nkept == 0);

  /* threads keeping and taking at once: each buffer is held by one at a time */
  char *bufs[THREADS];
  pthread_t th[THREADS];
  void *end[THREADS];
  for (int i = 0; i < THREADS; i++) {
    bufs[i] = malloc(4096);
    CHECK(bufs[i] != NULL);
    pthread_create(&th[i], NULL, churn, bufs[i]);
  }
  int held = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(th[i], &end[i]);
    CHECK(end[i] != (void *)1);
    held += end[i] != NULL;
  }
  CHECK(held + ctx.nkept == THREADS); /* none lost, none doubled */
  for (int i = 0; i < THREADS; i++) free(bufs[i]);
  pthread_mutex_destroy(&ctx.kept_lock);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("mapped keep: all checks passed\n");
  return failures ? 1 : 0;
}
