/*
 * team.c - a frame's GPUs: one process per GPU, joined through NVSHMEM
 * (include/gg_team.h, docs/multi-gpu.md).
 *
 * NVSHMEM's start-up, its symmetric allocations and its finalize are
 * collective: each waits inside NVSHMEM for every other rank, without a
 * bound of its own that libgg could rely on (the unique-id bootstrap
 * waits for its peers' sockets).  So every such call runs on a thread of
 * its own (collective_call), and the caller waits at most the team's
 * timeout for it.  Past that the caller gets GG_ERR_TIMEOUT and the team
 * is broken: the thread stays blocked inside NVSHMEM (it cannot be
 * cancelled safely), owns its own record, and frees it if it ever
 * returns.  A broken team makes no more NVSHMEM calls.
 *
 * NVSHMEM is process-wide state, started once: `process` below records
 * whether this process has started it (or tried), so a second open says
 * so rather than calling NVSHMEM again.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gg_team.h"
#include "internal.h"
#include "nvshmem.h"

struct gg_team {
  gg_context *ctx;
  int rank, size;
  int timeout_ms;
  int broken;          /* a collective call timed out: NVSHMEM is not called again */
  gg_array **arrays;   /* live symmetric arrays, orphaned when the team ends first */
  int narrays, cap;
};

/* This process and NVSHMEM: 0 never started, 1 a team is open (or its
 * open is under way), 2 spent (freed, failed or timed out). */
static struct {
  pthread_mutex_t lock;
  int state;
} process = {PTHREAD_MUTEX_INITIALIZER, 0};

/* ---- one collective call, bounded ---- */

typedef enum { CALL_INIT, CALL_MALLOC, CALL_FREE, CALL_BARRIER, CALL_FINALIZE } call_kind;
static const char *const call_names[] = {
    "NVSHMEM's start-up (nvshmemx_hostlib_init_attr)", "nvshmem_malloc", "nvshmem_free",
    "nvshmem_barrier_all", "nvshmemx_hostlib_finalize"};

typedef struct call {
  pthread_mutex_t lock;
  pthread_cond_t cv;
  int done, refs;      /* refs: the caller and the thread; the last one frees */
  gg_context *ctx;
  call_kind kind;
  int rank, size;      /* CALL_INIT */
  gg_team_uid uid;
  size_t bytes;        /* CALL_MALLOC */
  void *p;             /* CALL_MALLOC's result, CALL_FREE's argument */
  int rc;              /* NVSHMEM's code (CALL_INIT), or -1 where the context failed */
} call;

static void call_drop(call *c) {
  pthread_mutex_lock(&c->lock);
  int last = --c->refs == 0;
  pthread_mutex_unlock(&c->lock);
  if (last) {
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->lock);
    free(c);
  }
}

static void *call_main(void *arg) {
  call *c = arg;
  /* NVSHMEM works in the device's context: make it this thread's */
  if (c->ctx->be->ctx_set_current(c->ctx->native, c->ctx->device)) {
    c->rc = -1;
  } else {
    switch (c->kind) {
    case CALL_INIT: c->rc = ggr_nvshmem_init(c->rank, c->size, c->uid.bytes, c->ctx->device); break;
    case CALL_MALLOC: c->p = ggr_nvshmem_malloc(c->bytes); break;
    case CALL_FREE: ggr_nvshmem_free(c->p); break;
    case CALL_BARRIER: ggr_nvshmem_barrier(); break;
    case CALL_FINALIZE: ggr_nvshmem_finalize(); break;
    }
  }
  pthread_mutex_lock(&c->lock);
  c->done = 1;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&c->lock);
  call_drop(c);
  return NULL;
}

static call *call_new(gg_context *ctx, call_kind kind) {
  call *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  pthread_mutex_init(&c->lock, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&c->cv, &ca);
  pthread_condattr_destroy(&ca);
  c->refs = 2;
  c->ctx = ctx;
  c->kind = kind;
  return c;
}

/* Run c on its own thread and wait at most timeout_ms.  GG_OK when it
 * returned (the caller reads its results, then call_drop); otherwise c is
 * no longer the caller's (GG_ERR_TIMEOUT: the thread keeps it). */
static gg_status call_run(call *c, int timeout_ms, int rank, int size) {
  pthread_t th;
  pthread_attr_t ta;
  pthread_attr_init(&ta);
  pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
  int e = pthread_create(&th, &ta, call_main, c);
  pthread_attr_destroy(&ta);
  if (e) {
    c->refs = 1;
    call_drop(c);
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "%s: no thread to run it on (%s)",
                         call_names[c->kind], strerror(e));
  }
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_sec += timeout_ms / 1000;
  until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&c->lock);
  while (!c->done && pthread_cond_timedwait(&c->cv, &c->lock, &until) != ETIMEDOUT) {
  }
  int done = c->done;
  pthread_mutex_unlock(&c->lock);
  if (done) return GG_OK;
  gg_status st = ggr_set_error(GG_ERR_TIMEOUT, "rank %d of a team of %d: %s did not return "
                               "within %d ms: not every other rank made the same call (one "
                               "never started, died or is stuck); the team is broken, free it",
                               rank, size, call_names[c->kind], timeout_ms);
  call_drop(c);
  return st;
}

/* A call on the team; a timeout breaks it. */
static gg_status team_call(gg_team *t, call *c) {
  gg_status st = call_run(c, t->timeout_ms, t->rank, t->size);
  if (st == GG_ERR_TIMEOUT) t->broken = 1;
  return st;
}

static gg_status check_usable(const gg_team *t, const char *what) {
  if (t->broken)
    return ggr_set_error(GG_ERR_STATE, "%s: the team is broken (an earlier collective call "
                         "timed out); free it", what);
  return GG_OK;
}

/* ---- the team ---- */

gg_status gg_team_uid_new(gg_team_uid *uid) {
  if (!uid) return GGR_NULL_ARG();
  return ggr_nvshmem_uid(uid->bytes);
}

static gg_status check_open(gg_context *ctx, int rank, int size, int timeout_ms) {
  if (ctx->be->kind != GG_BACKEND_CUDA)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "gg_team_open: teams run on NVSHMEM, which is "
                         "CUDA only");
  if (size < 1 || size > GG_TEAM_MAX)
    return ggr_set_error(GG_ERR_INVALID, "gg_team_open: a team of %d ranks (1 to %d)", size,
                         GG_TEAM_MAX);
  if (rank < 0 || rank >= size)
    return ggr_set_error(GG_ERR_INVALID, "gg_team_open: rank %d of a team of %d (0 to %d)", rank,
                         size, size - 1);
  if (timeout_ms <= 0)
    return ggr_set_error(GG_ERR_INVALID, "gg_team_open: timeout_ms %d (more than 0)", timeout_ms);
  if (ctx->green)
    return ggr_set_error(GG_ERR_INVALID, "gg_team_open: the context is an SM partition; "
                         "NVSHMEM works in the device's primary context: open the team's "
                         "context on the whole device");
  int n = 0;
  if (ctx->be->device_count(&n) == 0 && size > n)
    return ggr_set_error(GG_ERR_INVALID, "gg_team_open: a team of %d ranks needs %d GPUs, one a "
                         "process; this host has %d (NVSHMEM runs here on one node, with no "
                         "network transport: docs/multi-gpu.md)", size, size, n);
  return GG_OK;
}

/* Defaults the application did not set (gg_team.h says why). */
static void nvshmem_environment(void) {
  setenv("NVSHMEM_DISABLE_NVLS", "1", 0);
  setenv("NVSHMEM_REMOTE_TRANSPORT", "none", 0);
}

gg_status gg_team_open(gg_context *ctx, int rank, int size, const gg_team_uid *uid,
                       int timeout_ms, gg_team **out) {
  if (out) *out = NULL;
  if (!ctx || !uid || !out) return GGR_NULL_ARG();
  gg_status st = check_open(ctx, rank, size, timeout_ms);
  if (st) return st;
  pthread_mutex_lock(&process.lock);
  int was = process.state;
  if (was == 0) process.state = 1;
  pthread_mutex_unlock(&process.lock);
  if (was)
    return ggr_set_error(GG_ERR_STATE, "gg_team_open: %s; NVSHMEM starts once per process",
                         was == 1 ? "this process already has a team"
                                  : "this process's NVSHMEM has ended (a team was freed, or "
                                    "its start-up failed)");
  int started = 0;
  st = ggr_nvshmem_host(&started);
  if (!st && started)
    st = ggr_set_error(GG_ERR_STATE, "gg_team_open: NVSHMEM is already initialized in this "
                       "process, not by libgg");
  if (!st) st = ggr_make_current(ctx);
  gg_team *t = st ? NULL : calloc(1, sizeof *t);
  call *c = t ? call_new(ctx, CALL_INIT) : NULL;
  if (!c) { /* NVSHMEM was not called: a later open may try again */
    free(t);
    if (!st) st = ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
    pthread_mutex_lock(&process.lock);
    process.state = 0;
    pthread_mutex_unlock(&process.lock);
    return st;
  }
  nvshmem_environment();
  *t = (gg_team){.ctx = ctx, .rank = rank, .size = size, .timeout_ms = timeout_ms};
  c->rank = rank;
  c->size = size;
  c->uid = *uid;
  st = call_run(c, timeout_ms, rank, size);
  if (st) {
    free(t);
    goto spent;
  }
  int rc = c->rc;
  call_drop(c);
  if (rc) {
    free(t);
    st = ggr_set_error(GG_ERR_BACKEND, "rank %d of a team of %d: NVSHMEM's start-up failed (%d; "
                       "NVSHMEM_DEBUG=INFO says why): is the id from gg_team_uid_new of a "
                       "process in this team, and does every GPU reach the others?",
                       rank, size, rc);
    goto spent;
  }
  *out = t;
  return GG_OK;
spent:
  pthread_mutex_lock(&process.lock);
  process.state = 2;
  pthread_mutex_unlock(&process.lock);
  return st;
}

int gg_team_rank(const gg_team *t) { return t ? t->rank : -1; }
int gg_team_size(const gg_team *t) { return t ? t->size : 0; }
gg_context *ggr_team_context(const gg_team *t) { return t ? t->ctx : NULL; }

static void forget_array(gg_team *t, gg_array *a) {
  for (int i = 0; i < t->narrays; i++)
    if (t->arrays[i] == a) {
      t->arrays[i] = t->arrays[--t->narrays];
      return;
    }
}

/* gg_array_free of a symmetric array: nvshmem_free, collective. */
static void release_array(gg_array *a) {
  gg_team *t = a->owner;
  if (t) {
    forget_array(t, a);
    call *c = t->broken ? NULL : call_new(t->ctx, CALL_FREE);
    if (c) {
      c->p = (void *)(uintptr_t)a->dptr;
      if (team_call(t, c) == GG_OK) call_drop(c);
    }
  }
  free(a);
}

gg_status gg_team_array_alloc(gg_team *t, size_t bytes, gg_array **out) {
  if (out) *out = NULL;
  if (!t || !out) return GGR_NULL_ARG();
  gg_status st = check_usable(t, "gg_team_array_alloc");
  if (st) return st;
  if (bytes == 0) return ggr_set_error(GG_ERR_INVALID, "gg_team_array_alloc: zero bytes");
  if (t->narrays == t->cap) {
    int cap = t->cap ? 2 * t->cap : 8;
    gg_array **grown = realloc(t->arrays, (size_t)cap * sizeof *grown);
    if (!grown) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
    t->arrays = grown;
    t->cap = cap;
  }
  gg_array *a = calloc(1, sizeof *a);
  call *c = a ? call_new(t->ctx, CALL_MALLOC) : NULL;
  if (!c) {
    free(a);
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  }
  c->bytes = bytes;
  st = team_call(t, c);
  if (st) {
    free(a);
    return st;
  }
  void *p = c->p;
  call_drop(c);
  if (!p) {
    free(a);
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "gg_team_array_alloc: %zu bytes do not fit "
                         "NVSHMEM's symmetric heap (NVSHMEM_SYMMETRIC_SIZE sets its size, "
                         "1 GiB by default)", bytes);
  }
  *a = (gg_array){.ctx = t->ctx, .space = GG_SPACE_DEVICE, .bytes = bytes,
                  .dptr = (ggr_dptr)(uintptr_t)p, .release = release_array, .owner = t};
  t->arrays[t->narrays++] = a;
  /* zero here, then meet: no peer puts into it before it is zero */
  st = gg_fill_zero(a, NULL);
  if (!st) st = ggr_make_current(t->ctx);
  if (!st) st = ggr_check(t->ctx, t->ctx->be->ctx_sync(), "zero a symmetric array");
  if (!st) {
    call *b = call_new(t->ctx, CALL_BARRIER);
    st = b ? team_call(t, b) : ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
    if (!st) call_drop(b);
  }
  if (st) {
    gg_array_free(a);
    return st;
  }
  *out = a;
  return GG_OK;
}

void gg_team_free(gg_team *t) {
  if (!t) return;
  /* arrays still alive become plain handles: their memory went with the heap */
  for (int i = 0; i < t->narrays; i++)
    t->arrays[i]->owner = NULL;
  if (!t->broken) {
    call *c = call_new(t->ctx, CALL_FINALIZE);
    if (c && call_run(c, t->timeout_ms, t->rank, t->size) == GG_OK) call_drop(c);
  }
  pthread_mutex_lock(&process.lock);
  process.state = 2;
  pthread_mutex_unlock(&process.lock);
  free(t->arrays);
  free(t);
}
