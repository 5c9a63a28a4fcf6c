/*
 * mapped_keep.c - the mapped host buffers of ended sessions, kept by
 * their context for the next session's mailbox (internal.h).
 *
 * A session's mailbox is host memory mapped into the device.  Allocating
 * one (cuMemHostAlloc, 4 KiB, mapped) took 485 us on an H200, and freeing
 * it 198 us (the driver calls timed alone, 50 times, 2026-11-29), where a
 * whole session's open took 560-1030 us and its terminate 240-420: most
 * of what gg_session_tune spends on each burst besides the frames.  A session whose kernel was seen to end hands its buffer
 * back here instead of freeing it; the next open takes the smallest kept
 * buffer that fits and zeroes it (ggr_mbox_init) before its kernel
 * starts.  A kernel that may still run (a terminate that timed out) or a
 * lost context never hands its buffer back: only memory no kernel can
 * touch is reused.  At most GGR_KEEP_MAX buffers of at most
 * GGR_KEEP_BYTES each are kept; the context frees them (gg_context_free).
 */
#include <pthread.h>
#include <string.h>

#include "internal.h"

void *ggr_mapped_take(gg_context *ctx, size_t bytes, size_t *got)
{
  void *p = NULL;
  pthread_mutex_lock(&ctx->kept_lock);
  int best = -1;
  for (int i = 0; i < ctx->nkept; i++)
    if (ctx->kept[i].bytes >= bytes && (best < 0 || ctx->kept[i].bytes < ctx->kept[best].bytes))
      best = i;
  if (best >= 0) {
    p = ctx->kept[best].ptr;
    *got = ctx->kept[best].bytes;
    ctx->kept[best] = ctx->kept[--ctx->nkept];
  }
  pthread_mutex_unlock(&ctx->kept_lock);
  return p;
}

int ggr_mapped_keep(gg_context *ctx, void *ptr, size_t bytes)
{
  int kept = 0;
  if (bytes > GGR_KEEP_BYTES)
    return 0;
  pthread_mutex_lock(&ctx->kept_lock);
  if (ctx->nkept < GGR_KEEP_MAX) {
    ctx->kept[ctx->nkept++] = (ggr_kept){ptr, bytes};
    kept = 1;
  }
  pthread_mutex_unlock(&ctx->kept_lock);
  return kept;
}

void ggr_mapped_release_all(gg_context *ctx)
{
  ggr_kept all[GGR_KEEP_MAX];
  pthread_mutex_lock(&ctx->kept_lock);
  const int n = ctx->nkept;
  memcpy(all, ctx->kept, sizeof all[0] * (size_t)n);
  ctx->nkept = 0;
  pthread_mutex_unlock(&ctx->kept_lock);
  for (int i = 0; i < n; i++) /* each free may take ~0.2 ms: outside the lock */
    ggr_release(ctx, GGR_RELEASE_HOST, 0, all[i].ptr);
}
