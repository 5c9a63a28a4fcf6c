/*
 * internal.h - the runtime's objects, shared by the runtime's own files
 * (context.c, module.c, array.c, launch.c, session.c, ...).  Not installed.
 */
#ifndef GGR_INTERNAL_H
#define GGR_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "backend.h"
#include "gg.h"
#include "gg_team.h"

struct ggr_cache;
struct ggr_key;

#define GGR_ERR_LEN 8192      /* compiler logs can be long; keep the head */
#define GGR_MAX_ARGS 4096     /* the CUDA kernel-parameter limit of older GPUs */
#define GGR_MAX_BLOCKS 0x7fffffff /* blocks of one launch (the driver's grid.x limit) */
/* The most indices a range (or teams a league) may have: kernels step
 * through it by the whole grid in long long, so it stays far from
 * INT64_MAX; no device gets near it (2^62 indices). */
#define GGR_MAX_WORK (INT64_C(1) << 62)

/* a * b + c in size_t: 0, or -1 when it does not fit. */
static inline int ggr_mul_add_size(size_t a, size_t b, size_t c, size_t *out) {
  size_t p;
  return __builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(p, c, out) ? -1 : 0;
}

/* A mapped host buffer kept for reuse (mapped_keep.c). */
#define GGR_KEEP_MAX 4                /* buffers a context keeps */
#define GGR_KEEP_BYTES (1u << 20)     /* the largest it keeps */
typedef struct ggr_kept {
  void *ptr;
  size_t bytes;
} ggr_kept;

struct gg_context {
  ggr_backend *be;            /* owned */
  ggr_compiler *rtc;          /* owned; loaded on the first compile */
  void *native;               /* CUcontext (primary, retained) / NULL on HIP */
  int device;                 /* ordinal */
  int ctx_created;            /* native context retained: release on free */
  void *green;                /* CUgreenCtx of an SM partition (native is made from it) */
  char arch[32];              /* "sm_90", "gfx90a" */
  char device_name[256];
  int sm_count;
  int cc_major, cc_minor;
  int cooperative;            /* device supports cooperative launch */
  int can_map_host;
  int managed;
  int driver_version;
  int verbose;
  struct ggr_cache *cache;    /* owned; may be disabled, never NULL after open */
  struct gg_module *modules;  /* loaded modules (the in-memory cache) */
  /* Persistent kernels launched on this context and not known to have
   * exited (session.c counts them, atomically; device.c counts them per
   * device too): gg_device_sync would wait for them forever. */
  int sessions_running;
  /* mapped host buffers of ended sessions, for the next mailbox
   * (mapped_keep.c) */
  pthread_mutex_t kept_lock;
  int nkept;
  ggr_kept kept[GGR_KEEP_MAX];
};

/* How a module's binary is made: plain NVRTC / hiprtc (module.c), or
 * relocatable device code linked with the device runtime (module_rdc.c).  The
 * rest of loading - in-memory and disk cache, retry, kernels, workspaces -
 * is the same for both (ggr_module_load_with). */
typedef struct ggr_builder {
  const char *what;  /* for messages: "module load" */
  gg_status (*check)(gg_context *ctx, const gg_module_desc *d);
  gg_status (*key)(gg_context *ctx, const gg_module_desc *d, struct ggr_key *key);
  gg_status (*compile)(gg_context *ctx, const gg_module_desc *d, void **bin, size_t *size,
                       double *ms);
} ggr_builder;

struct gg_module {
  gg_context *ctx;
  const gg_module_desc *desc;
  const ggr_builder *builder;
  uint64_t key_lo, key_hi;    /* cache key of the binary it was loaded from */
  void *native;               /* CUmodule / hipModule_t */
  int refs;                   /* gg_module_load of the same desc shares it */
  int from_cache;             /* 1: binary came from the disk cache */
  int opened_compiler;        /* 1: this load opened the context's compiler */
  double compile_ms;          /* time in the compiler (0 on a cache hit) */
  int nvshmem_init;           /* 1: NVSHMEM was told of it (nvshmem.c), to be told at unload */
  struct gg_kernel *kernels;  /* desc->nkernels, resolved on load */
  void **persistent_fn;       /* desc->npersistent functions, resolved on load (device.c:
                                 resolving one while a session runs could wait for it) */
  struct gg_module *next;
};

struct gg_kernel {
  gg_module *mod;
  const gg_kernel_desc *desc;
  void *fn;                   /* CUfunction / hipFunction_t */
  int resident_per_sm;        /* occupancy at desc->block_size, shared_bytes */
  int resident;               /* resident_per_sm * sm_count */
  ggr_dptr ws;                /* workspace (0 if none) */
  size_t ws_bytes;
  unsigned seq;               /* launch counter for GG_HIDDEN_SEQ */
  int nargs;                  /* arguments a caller passes (params not hidden) */
};

struct gg_array {
  gg_context *ctx;
  gg_space space;
  size_t bytes;
  ggr_dptr dptr;              /* address kernels and copies use */
  void *host;                 /* host address (NULL for device arrays) */
  /* Set by an allocator other than gg_array_alloc (team.c's symmetric
   * heap): gg_array_free hands the array to it instead of the driver. */
  void (*release)(struct gg_array *a);
  void *owner;                /* what release needs (the team) */
};

/* The context a team (team.c) was opened on. */
gg_context *ggr_team_context(const gg_team *t);

struct gg_stream {
  gg_context *ctx;
  void *native;
  int pdl;                    /* gg_stream_set_pdl: GG_FEAT_PDL kernels launch with PDL */
};

struct gg_event {
  gg_context *ctx;
  void *native;
};

/* Record the detail of a failure in the calling thread's buffer (what
 * gg_error_detail returns) and return status, so a caller can
 * `return ggr_set_error(GG_ERR_INVALID, "...")`.  Arguments may point into
 * that buffer (gg_error_detail()): the old detail can be part of the new. */
gg_status ggr_set_error(gg_status status, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));
gg_status ggr_set_errorv(gg_status status, const char *fmt, va_list ap);
/* A NULL handle or out-pointer given to a public call. */
#define GGR_NULL_ARG() ggr_set_error(GG_ERR_INVALID, "%s: a required argument is NULL", __func__)
/* Append a multi-line text (a compiler log) to the detail, after a
 * newline; the one way a message gets more than one line. */
void ggr_append_log(const char *log);

/* Every message the runtime writes goes through these: printf-style into
 * dst, with control characters written as \xNN (ggr_clean), so names and
 * paths from the user can't forge lines or drive a terminal.  Arguments
 * may point into dst. */
void ggr_format(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ggr_formatv(char *dst, size_t n, const char *fmt, va_list ap);
void ggr_clean(char *dst, size_t n, const char *src, int keep_lines);
/* One line "gpugen: <message>" on stderr (warnings, verbose reports). */
void ggr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Check a vendor call: 0 -> GG_OK; else records "<what>: <NAME>: <string>"
 * and returns the mapped status. */
gg_status ggr_check(const gg_context *ctx, int code, const char *what);
/* "NAME" or "NAME: string" for a vendor code, into buf. */
const char *ggr_code_text(const ggr_backend *be, int code, char *buf, size_t n);

/* ---- what a running persistent kernel makes wait (device.c) ---- */

/* How long a wait for the default stream lasts while persistent kernels
 * run on the device (after that it is GG_ERR_TIMEOUT): as long as a
 * session's open waits for its kernel to run. */
#define GGR_DEVICE_WAIT_NS 10000000000ull

typedef enum {
  GGR_RELEASE_DEVICE,   /* mem_free(dptr) */
  GGR_RELEASE_HOST,     /* host_free(ptr) */
  GGR_RELEASE_MODULE,   /* module_unload(ptr) */
  GGR_RELEASE_CONTEXT   /* the context itself, after its modules (gg_context_free) */
} ggr_release_kind;

/* A persistent kernel of ctx was launched (count it before the launch) /
 * is seen to have ended; the last to end on the device runs the frees put
 * off meanwhile. */
void ggr_kernel_started(gg_context *ctx);
void ggr_kernel_ended(gg_context *ctx);
/* A counted kernel whose session is freed before it was seen to end: the
 * device watches its stream (now ctx's) and counts it ended when the
 * stream is done, then destroys the stream. */
void ggr_kernel_watch(gg_context *ctx, void *stream);
/* Persistent kernels running on ctx's device, over all its contexts. */
int ggr_device_running(gg_context *ctx);
/* 0, with the device's lock held (so no persistent kernel starts until
 * ggr_device_unlock), when none runs on ctx's device; else their count,
 * lock not held.  For calls the driver makes wait for every kernel. */
int ggr_device_quiet(gg_context *ctx);
void ggr_device_unlock(void);
/* Free now, or, while persistent kernels run on the device, when the last
 * one ends (the driver's frees wait for them). */
void ggr_release(gg_context *ctx, ggr_release_kind kind, ggr_dptr dptr, void *ptr);

/* Mapped host buffers of ended sessions (mapped_keep.c): take the
 * smallest kept one of at least `bytes` (its size in *got), or NULL;
 * keep one (1), or 0 when the context keeps enough already (the caller
 * frees it); release them all (gg_context_free).  Thread-safe. */
void *ggr_mapped_take(gg_context *ctx, size_t bytes, size_t *got);
int ggr_mapped_keep(gg_context *ctx, void *ptr, size_t bytes);
void ggr_mapped_release_all(gg_context *ctx);
/* Wait for a stream (NULL: the default stream): unbounded while no
 * persistent kernel runs on the device, else at most GGR_DEVICE_WAIT_NS
 * (its work may need SMs they hold). */
gg_status ggr_stream_wait(gg_context *ctx, void *stream, const char *what);
/* A copy queued on the default stream / a zero fill on `stream`, landed on return
 * (backend.h: why not the driver's "synchronous" calls). */
gg_status ggr_copy_landed(gg_context *ctx, ggr_dptr dst, ggr_dptr src, size_t bytes,
                          const char *what);
gg_status ggr_zero_landed(gg_context *ctx, void *stream, ggr_dptr dst, size_t bytes,
                          const char *what);
/* The same, copied from zeroed host memory: no SM needed. */
gg_status ggr_zero_by_copy(gg_context *ctx, void *stream, ggr_dptr dst, size_t bytes,
                           const char *what);

/* Make the context current on this thread (cheap; CUDA needs it per thread). */
static inline gg_status ggr_make_current(gg_context *ctx) {
  return ggr_check(ctx, ctx->be->ctx_set_current(ctx->native, ctx->device),
                   "set current context");
}

/* The descriptor's argument layout, checked once when the module loads;
 * sets k->nargs. */
gg_status ggr_kernel_check_layout(gg_kernel *k);
/* Pack with hidden fields filled from the kernel (workspace, sequence);
 * the layout is the one ggr_kernel_check_layout accepted. */
gg_status ggr_pack_kernel_args(gg_kernel *k, const gg_arg *args, int nargs, void *buf,
                               size_t buf_size);

/* Threads a multi-block persistent kernel's compile keeps room for on
 * one SM (module.c, ggr_module_options): 2 blocks of 256, 128 registers
 * a thread at most. */
#define GGR_PERSIST_SM_THREADS 512
/* A module's compile options on this context (module.c says which):
 * list is NULL-terminated; free it with ggr_module_options_free. */
typedef struct ggr_options {
  const char **list;
  int n, nbase; /* entries; the descriptor's, which are not ours to free */
} ggr_options;
gg_status ggr_module_options(const gg_context *ctx, const gg_module_desc *d, ggr_options *o);
void ggr_module_options_free(ggr_options *o);

/* Load (or share) the module of `desc`, its binary made by `b`. */
gg_status ggr_module_load_with(gg_context *ctx, const gg_module_desc *desc, const ggr_builder *b,
                               gg_module **out);

/* The grid (blocks) and block size (threads) of a launch, from the
 * descriptor's rule and the range extents in the packed arguments. */
gg_status ggr_grid_for(gg_kernel *k, const void *packed, int64_t *blocks, int *threads);

/* Monotonic clock in milliseconds. */
static inline double ggr_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#endif /* GGR_INTERNAL_H */
