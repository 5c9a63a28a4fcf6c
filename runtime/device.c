/*
 * device.c - what a running persistent kernel makes wait, on every
 * context of its device.
 *
 * Measured on an H100 (driver 580.159, CUDA 13, green contexts of 16 SMs
 * and the rest, and the primary context; lazy and eager module loading
 * alike), with a kernel spinning on one context:
 *
 *   waits for it, whatever context calls     module load, module unload,
 *                                            device free, pinned host free
 *   waits for it, on the primary context     context synchronize (the
 *                                            primary holds the green ones)
 *   waits for it, on its own context only    context synchronize; launches,
 *                                            memsets and device copies that
 *                                            need SMs it holds
 *   returns at once                          device and pinned host
 *                                            allocation, streams, events,
 *                                            occupancy, function attributes,
 *                                            host-to-device copies
 *
 * Under lazy loading (the driver's default) a function is loaded at its
 * first use, and that load waits like a module load; the context's work
 * queued after it waits too (seen: a session opened on one SM partition
 * while another's session ran never got past zeroing its memory).  So
 * every function of a module is loaded with the module (cuda.c).
 *
 * A persistent kernel ends only at gg_session_terminate, so each call in
 * the first rows, made while one runs, would wait until then - forever,
 * if the thread that waits is the one that would terminate it.  So the
 * runtime counts the device's running persistent kernels here, over all
 * its contexts; module loads and a primary context's synchronize are
 * refused while any runs (ggr_device_quiet), frees are put off until the
 * last one ends (ggr_release), and work queued on a stream is waited for
 * with a bound while any runs (ggr_stream_wait).
 *
 * This is process-wide state on purpose: the driver's waits span every
 * context of a device, so the count must too.  One mutex guards it; the
 * frees put off run under it when the count drops to zero, so no kernel
 * can start on the device (and make them wait) while they run.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "cache.h"
#include "internal.h"
#include "gg_session.h"

/* Ordinals past this share a slot: the rules then hold for both devices
 * of a slot together, more cautious than needed, never less. */
#define SLOTS 64

typedef struct later {
  struct later *next;
  gg_context *ctx;
  ggr_release_kind kind;
  ggr_dptr dptr;
  void *ptr;
} later;

/* A counted kernel whose session is gone before the kernel was seen to
 * end (a terminate that timed out, a launch that never ran): its stream
 * tells when it ends. */
typedef struct watched {
  struct watched *next;
  gg_context *ctx;
  void *stream;
} watched;

typedef struct device {
  int running;          /* persistent kernels launched, not seen to end */
  later *head, **tail;  /* frees put off, oldest first */
  watched *watch;       /* of those, the ones no session watches any more */
} device;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static device devices[2][SLOTS]; /* [HIP?][ordinal % SLOTS] */

static device *device_of(const gg_context *ctx) {
  return &devices[ctx->be->kind == GG_BACKEND_HIP][(unsigned)ctx->device % SLOTS];
}

/* The context's teardown, after its modules are gone (gg_context_free):
 * here, since like the other frees it may have to wait for the device's
 * persistent kernels to end. */
static void context_teardown(gg_context *ctx) {
  if (ctx->green) ctx->be->green_destroy(ctx->green);
  if (ctx->ctx_created) ctx->be->ctx_destroy(ctx->native, ctx->device);
  ggr_cache_close(ctx->cache);
  ggr_compiler_unload(ctx->rtc);
  ggr_backend_unload(ctx->be);
  pthread_mutex_destroy(&ctx->kept_lock);
  free(ctx);
}

static void release_now(gg_context *ctx, ggr_release_kind kind, ggr_dptr dptr, void *ptr) {
  const ggr_backend *be = ctx->be;
  if (kind == GGR_RELEASE_CONTEXT) {
    context_teardown(ctx);
    return;
  }
  ggr_make_current(ctx);
  switch (kind) {
  case GGR_RELEASE_DEVICE: be->mem_free(dptr); break;
  case GGR_RELEASE_HOST: be->host_free(ptr); break;
  case GGR_RELEASE_MODULE: be->module_unload(ptr); break;
  case GGR_RELEASE_CONTEXT: break;
  }
}

/* The frees put off, in the order they were asked for (a context's own
 * come before the context).  Called with the lock held. */
static void release_later(device *d) {
  later *l = d->head;
  d->head = NULL;
  d->tail = &d->head;
  while (l) {
    later *next = l->next;
    release_now(l->ctx, l->kind, l->dptr, l->ptr);
    free(l);
    l = next;
  }
}

/* One ended (with the lock held). */
static void one_ended(device *d) {
  if (--d->running == 0) release_later(d);
}

/* Drops the watched kernels that have ended (their stream is done, or
 * gone with a fault).  The calls switch contexts: ctx is made current
 * again at the end.  With the lock held. */
static void sweep(device *d, gg_context *ctx) {
  int switched = 0;
  for (watched **p = &d->watch; *p;) {
    watched *w = *p;
    ggr_make_current(w->ctx);
    switched = 1;
    if (w->ctx->be->stream_query(w->stream) == GGR_E_NOT_READY) {
      p = &w->next;
      continue;
    }
    *p = w->next;
    w->ctx->be->stream_destroy(w->stream);
    __atomic_sub_fetch(&w->ctx->sessions_running, 1, __ATOMIC_ACQ_REL);
    free(w);
    one_ended(d);
  }
  if (switched) ggr_make_current(ctx);
}

void ggr_kernel_watch(gg_context *ctx, void *stream) {
  pthread_mutex_lock(&lock);
  device *d = device_of(ctx);
  watched *w = malloc(sizeof *w);
  if (w) { /* without memory to note it, it stays counted: cautious, never wrong */
    *w = (watched){d->watch, ctx, stream};
    d->watch = w;
  }
  sweep(d, ctx);
  pthread_mutex_unlock(&lock);
}

void ggr_kernel_started(gg_context *ctx) {
  pthread_mutex_lock(&lock);
  device_of(ctx)->running++;
  pthread_mutex_unlock(&lock);
}

void ggr_kernel_ended(gg_context *ctx) {
  pthread_mutex_lock(&lock);
  one_ended(device_of(ctx));
  ggr_make_current(ctx);
  pthread_mutex_unlock(&lock);
}

int ggr_device_running(gg_context *ctx) {
  pthread_mutex_lock(&lock);
  device *d = device_of(ctx);
  sweep(d, ctx);
  int n = d->running;
  pthread_mutex_unlock(&lock);
  return n;
}

int ggr_device_quiet(gg_context *ctx) {
  pthread_mutex_lock(&lock);
  device *d = device_of(ctx);
  sweep(d, ctx);
  int n = d->running;
  if (n) pthread_mutex_unlock(&lock);
  return n;
}

void ggr_device_unlock(void) { pthread_mutex_unlock(&lock); }

void ggr_release(gg_context *ctx, ggr_release_kind kind, ggr_dptr dptr, void *ptr) {
  pthread_mutex_lock(&lock);
  device *d = device_of(ctx);
  sweep(d, ctx);
  later *l = d->running ? malloc(sizeof *l) : NULL;
  if (l) {
    *l = (later){NULL, ctx, kind, dptr, ptr};
    if (!d->tail) d->tail = &d->head;
    *d->tail = l;
    d->tail = &l->next;
  } else if (!d->running) {
    release_now(ctx, kind, dptr, ptr);
  }
  /* else: no host memory for the note, and freeing now would wait for
   * the kernels: the memory stays allocated until the process exits */
  pthread_mutex_unlock(&lock);
}

gg_status ggr_stream_wait(gg_context *ctx, void *stream, const char *what) {
  const ggr_backend *be = ctx->be;
  if (!ggr_device_running(ctx)) return ggr_check(ctx, be->stream_sync(stream), what);
  uint64_t t0 = gg_rt_now_ns();
  int q;
  while ((q = be->stream_query(stream)) == GGR_E_NOT_READY) {
    if (gg_rt_now_ns() - t0 > GGR_DEVICE_WAIT_NS)
      return ggr_set_error(GG_ERR_TIMEOUT, "%s: not done after %d s while %d persistent "
                           "kernel(s) run on this device, and it stays queued until they end: "
                           "they may hold the SMs it needs, and on an SM partition work waited "
                           "for another partition's session too (H100, driver 580); "
                           "terminate the sessions first, or do this before opening them", what,
                           (int)(GGR_DEVICE_WAIT_NS / 1000000000u), ggr_device_running(ctx));
    sched_yield();
  }
  return ggr_check(ctx, q, what);
}

gg_status ggr_copy_landed(gg_context *ctx, ggr_dptr dst, ggr_dptr src, size_t bytes,
                          const char *what) {
  gg_status st = ggr_check(ctx, ctx->be->memcpy_async(dst, src, bytes, NULL), what);
  return st ? st : ggr_stream_wait(ctx, NULL, what);
}

gg_status ggr_zero_landed(gg_context *ctx, void *stream, ggr_dptr dst, size_t bytes,
                          const char *what) {
  gg_status st = ggr_check(ctx, ctx->be->memset_async(dst, 0, bytes, stream), what);
  return st ? st : ggr_stream_wait(ctx, stream, what);
}

/* Zeroes from the host: a copy runs on a copy engine and needs no SM.
 * The host buffer is freed once the copy is known to be done (a copy still
 * queued after the bound keeps it). */
gg_status ggr_zero_by_copy(gg_context *ctx, void *stream, ggr_dptr dst, size_t bytes,
                           const char *what) {
  void *zeros = calloc(1, bytes ? bytes : 1);
  if (!zeros) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "%s: %zu bytes of host memory", what, bytes);
  gg_status st = ggr_check(ctx, ctx->be->memcpy_async(dst, (ggr_dptr)(uintptr_t)zeros, bytes,
                                                      stream), what);
  if (!st) st = ggr_stream_wait(ctx, stream, what);
  if (st != GG_ERR_TIMEOUT) free(zeros);
  return st;
}
