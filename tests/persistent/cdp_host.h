/*
 * cdp_host.h - the host side of the device-side launch loop
 * (templates/cuda/cdp.cuh), shared by tests/persistent/test_cdp.c and
 * bench/cdp_bench.c.  Header-only, static functions: one loop per
 * cdp_loop, no global state.
 *
 * Protocol (one frame in flight, single slot):
 *   host: cmd = (seq << 8) | command        (release store)
 *   parent (one thread, polling cmd at system scope) launches the child
 *   with cudaStreamFireAndForget
 *   child's last block: [sum =] ..., done = seq   (st.release.sys)
 *   host: waits until done == seq             (acquire loads, bounded)
 * The host never posts frame k+1 before it saw frame k done, so the
 * parent needs no device-side wait for its children.
 *
 * The source (the prelude and templates/cuda/cdp.cuh) is read at run
 * time, as a generated module would carry it as a string.
 */
#ifndef GG_CDP_HOST_H
#define GG_CDP_HOST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gg.h"

enum { CDP_EMPTY = 1, CDP_INC = 2, CDP_SUM = 3, CDP_QUIT = 255 };
enum { CDP_RUNNING = 1, CDP_EXITED = 2 };

/* = struct gg_cdp_box in cdp.cuh (64-byte lines) */
typedef struct cdp_box {
  uint64_t cmd, pad0[7];
  uint64_t done;
  int64_t sum;
  uint64_t pad1[6];
  uint64_t state, error, pad2[6];
} cdp_box;

typedef struct cdp_loop {
  gg_context *ctx;
  gg_module_desc desc;
  gg_module *mod;
  gg_stream *stream;
  gg_array *box_arr, *x, *ticket;
  cdp_box *box;
  gg_kernel *k[5];             /* parent, the children by command, tail parent */
  long long n_inc, n_sum;
  uint64_t seq;
  int running;
  char *source;
  char err[600];
} cdp_loop;

static inline double cdp_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Appends the text of the file at path to *buf (n bytes so far, kept
 * NUL-terminated); 0 when done, else err says why. */
static inline int cdp_append_file(char **buf, size_t *n, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open %s", path);
    return -1;
  }
  long len = -1;
  char *grown = NULL;
  int ok = fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
           (grown = realloc(*buf, *n + (size_t)len + 1)) != NULL;
  if (grown)
    *buf = grown;
  ok = ok && fread(*buf + *n, 1, (size_t)len, f) == (size_t)len;
  fclose(f);
  if (!ok) {
    snprintf(err, errlen, "cannot read %s", path);
    return -1;
  }
  *n += (size_t)len;
  (*buf)[*n] = 0;
  return 0;
}

/* The module's source as gpugen renders one: the shared headers
 * (gg_abi.h, gg_protocol.h), the CUDA prelude, whose memory-ordering
 * helpers the loop uses, then cdp.cuh (GG_CDP_CUH in the environment
 * names another one).  GG_SOURCE_ROOT (set by CMake) is the source tree. */
static inline char *cdp_read_source(char *err, size_t errlen) {
  const char *cdp = getenv("GG_CDP_CUH");
  if (!cdp)
    cdp = GG_SOURCE_ROOT "/templates/cuda/cdp.cuh";
  const char *parts[] = {GG_SOURCE_ROOT "/include/gg_abi.h", GG_SOURCE_ROOT "/include/gg_protocol.h",
                         GG_SOURCE_ROOT "/templates/cuda/prelude.cuh", cdp};
  char *buf = NULL;
  size_t n = 0;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    if (cdp_append_file(&buf, &n, parts[i], err, errlen) != 0) {
      free(buf);
      return NULL;
    }
  return buf;
}

/* The parent's argument struct = struct gg_cdp_args in cdp.cuh. */
static const gg_param_desc cdp_params[] = {
  {.name = "box", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 0, .size = 8},
  {.name = "x", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 8, .size = 8},
  {.name = "ticket", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 16, .size = 8},
  {.name = "n_inc", .kind = GG_PARAM_SCALAR, .dtype = GG_I64, .offset = 24, .size = 8},
  {.name = "n_sum", .kind = GG_PARAM_SCALAR, .dtype = GG_I64, .offset = 32, .size = 8},
  {.name = "idle_ns", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 40, .size = 8},
  {.name = "seq", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 48, .size = 8},
};
/* The parent takes gg_cdp_args (the first 6 fields); the children take
 * gg_cdp_frame (those and seq), so the host can launch them too. */
#define CDP_KERNEL(nm, sym, block, np, size)                                        \
  {.name = nm, .symbol = sym, .mode = GG_LAUNCH_CLASSIC, .block_size = block,       \
   .items_per_thread = 1, .grid_rule = GG_GRID_FIXED, .grid_fixed = 1,              \
   .args_size = size, .args_align = 8, .nparams = np, .params = cdp_params,         \
   .strategy = "device-side launch (fire-and-forget children)"}
static const gg_kernel_desc cdp_kernels[] = {
  CDP_KERNEL("cdp_parent", "gg_cdp_parent", 1, 6, 48),
  CDP_KERNEL("cdp_empty", "gg_cdp_empty", 1, 7, 56),
  CDP_KERNEL("cdp_inc", "gg_cdp_inc", 256, 7, 56),
  CDP_KERNEL("cdp_sum", "gg_cdp_sum", 256, 7, 56),
  CDP_KERNEL("cdp_parent_tail", "gg_cdp_parent_tail", 1, 7, 56),
};
static const char *const cdp_options[] = {"-default-device", "-std=c++17", NULL};

/* The argument values: the parent's 6, a child's 7 (with seq). */
static inline void cdp_args(const cdp_loop *L, uint64_t seq, gg_arg args[7]) {
  args[0] = gg_arg_u64((uint64_t)(uintptr_t)gg_array_native(L->box_arr));
  args[1] = gg_arg_u64((uint64_t)(uintptr_t)gg_array_native(L->x));
  args[2] = gg_arg_u64((uint64_t)(uintptr_t)gg_array_native(L->ticket));
  args[3] = gg_arg_i64(L->n_inc);
  args[4] = gg_arg_i64(L->n_sum);
  args[5] = gg_arg_u64(20ull * 1000 * 1000 * 1000); /* parent gives up after 20 s without a frame */
  args[6] = gg_arg_u64(seq);
}

/* Load the module (NVRTC -rdc + nvJitLink) and allocate; cdp_start
 * launches the parent.  x holds n_x ints (x_init, or zeros if NULL). */
static inline gg_status cdp_open(cdp_loop *L, gg_context *ctx, const int *x_init, long long n_x,
                          long long n_inc, long long n_sum) {
  memset(L, 0, sizeof *L);
  L->ctx = ctx;
  L->n_inc = n_inc;
  L->n_sum = n_sum;
  L->source = cdp_read_source(L->err, sizeof L->err);
  if (!L->source) return GG_ERR_IO;
  L->desc = (gg_module_desc){
    .abi = GG_MODULE_ABI, .name = "cdp", .lua_file = "cdp.cuh", .gpugen_version = gg_version(),
    .cuda_source = L->source, .cuda_options = cdp_options, .nkernels = 5, .kernels = cdp_kernels,
  };
  gg_status st = gg_module_load_rdc(ctx, &L->desc, &L->mod);
  size_t xbytes = (size_t)(n_x > 0 ? n_x : 1) * sizeof(int);
  if (!st) st = gg_kernel_get(L->mod, "cdp_parent", &L->k[0]);
  if (!st) st = gg_kernel_get(L->mod, "cdp_empty", &L->k[CDP_EMPTY]);
  if (!st) st = gg_kernel_get(L->mod, "cdp_inc", &L->k[CDP_INC]);
  if (!st) st = gg_kernel_get(L->mod, "cdp_sum", &L->k[CDP_SUM]);
  if (!st) st = gg_kernel_get(L->mod, "cdp_parent_tail", &L->k[4]);
  if (!st) st = gg_stream_open(ctx, &L->stream);
  if (!st) st = gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(cdp_box), &L->box_arr);
  if (!st) st = gg_array_alloc(ctx, GG_SPACE_DEVICE, xbytes, &L->x);
  if (!st) st = gg_array_alloc(ctx, GG_SPACE_DEVICE, 64, &L->ticket);
  if (!st) st = gg_fill_zero(L->ticket, NULL);
  if (!st) st = x_init ? gg_copy_from_host(L->x, 0, x_init, xbytes, NULL) : gg_fill_zero(L->x, NULL);
  if (st) {
    snprintf(L->err, sizeof L->err, "%s", gg_error_detail());
    return st;
  }
  L->box = gg_array_host(L->box_arr);
  memset(L->box, 0, sizeof *L->box);
  return GG_OK;
}

/* Launch the parent and wait (bounded) until it says it runs.  tail = 0:
 * the long-lived parent; 1: the chain of one-frame parents, each
 * tail-launching the next. */
static inline gg_status cdp_start(cdp_loop *L, int tail) {
  gg_arg args[7];
  /* the chain starts from the command word's frame, which it has "seen" */
  cdp_args(L, __atomic_load_n(&L->box->cmd, __ATOMIC_ACQUIRE) >> 8, args);
  __atomic_store_n(&L->box->state, 0, __ATOMIC_RELEASE);
  gg_status st = tail ? gg_launch_grid(L->k[4], L->stream, 1, args, 7)
                      : gg_launch_grid(L->k[0], L->stream, 1, args, 6);
  if (st) {
    snprintf(L->err, sizeof L->err, "parent launch: %s", gg_error_detail());
    return st;
  }
  L->running = 1;
  /* the parent says it runs: bounded, so a refused launch is an error */
  double t0 = cdp_now_ms();
  while (__atomic_load_n(&L->box->state, __ATOMIC_ACQUIRE) != CDP_RUNNING)
    if (cdp_now_ms() - t0 > 5000) {
      snprintf(L->err, sizeof L->err, "the parent kernel did not start within 5 s");
      return GG_ERR_TIMEOUT;
    }
  return GG_OK;
}

/* Post one frame and wait for its completion (timeout in ms). */
static inline gg_status cdp_frame(cdp_loop *L, int cmd, double timeout_ms) {
  uint64_t seq = ++L->seq;
  __atomic_store_n(&L->box->cmd, (seq << 8) | (uint64_t)cmd, __ATOMIC_RELEASE);
  double t0 = 0;
  for (unsigned spin = 0; __atomic_load_n(&L->box->done, __ATOMIC_ACQUIRE) != seq; spin++) {
    if ((spin & 1023) != 0) continue;
    double t = cdp_now_ms();
    if (t0 == 0) t0 = t;
    else if (t - t0 > timeout_ms) {
      snprintf(L->err, sizeof L->err, "frame %llu (command %d) not done after %.0f ms (done=%llu)",
               (unsigned long long)seq, cmd, timeout_ms,
               (unsigned long long)__atomic_load_n(&L->box->done, __ATOMIC_ACQUIRE));
      return GG_ERR_TIMEOUT;
    }
  }
  uint64_t e = __atomic_load_n(&L->box->error, __ATOMIC_RELAXED);
  if (e == 0xffffffffull) {
    snprintf(L->err, sizeof L->err, "frame %llu: the parent does not know command %d",
             (unsigned long long)seq, cmd);
    return GG_ERR_LAUNCH;
  }
  if (e) {
    snprintf(L->err, sizeof L->err, "frame %llu: the device-side launch failed (cudaError %llu)",
             (unsigned long long)seq, (unsigned long long)e);
    return GG_ERR_LAUNCH;
  }
  return GG_OK;
}

/* The comparison: the same child launched from the host, then a stream
 * sync (the parent must not be running).  Checks the child's done. */
static inline gg_status cdp_host_frame(cdp_loop *L, int cmd) {
  uint64_t seq = ++L->seq;
  gg_arg args[7];
  cdp_args(L, seq, args);
  int blocks = cmd == CDP_INC ? (int)((L->n_inc + 255) / 256) : 1;
  gg_status st = gg_launch_grid(L->k[cmd], L->stream, blocks, args, 7);
  if (!st) st = gg_stream_sync(L->stream);
  if (st) {
    snprintf(L->err, sizeof L->err, "host launch: %s", gg_error_detail());
    return st;
  }
  if (__atomic_load_n(&L->box->done, __ATOMIC_ACQUIRE) != seq) {
    snprintf(L->err, sizeof L->err, "host-launched frame %llu: done not stored",
             (unsigned long long)seq);
    return GG_ERR_LAUNCH;
  }
  return GG_OK;
}

static inline int64_t cdp_sum_result(const cdp_loop *L) { return L->box->sum; }

/* Quit the parent (bounded).  A parent that does not exit is left to its
 * idle limit and reported: syncing the stream would block for as long. */
static inline gg_status cdp_stop(cdp_loop *L) {
  if (!L->running) return GG_OK;
  __atomic_store_n(&L->box->cmd, (++L->seq << 8) | CDP_QUIT, __ATOMIC_RELEASE);
  double t0 = cdp_now_ms();
  while (__atomic_load_n(&L->box->state, __ATOMIC_ACQUIRE) != CDP_EXITED)
    if (cdp_now_ms() - t0 > 5000) {
      snprintf(L->err, sizeof L->err, "the parent kernel did not exit within 5 s");
      return GG_ERR_TIMEOUT;
    }
  L->running = 0;
  gg_status st = gg_stream_sync(L->stream);
  if (st) snprintf(L->err, sizeof L->err, "after the parent: %s", gg_error_detail());
  return st;
}

/* Stop, then free everything (a parent still running keeps its memory). */
static inline gg_status cdp_close(cdp_loop *L) {
  gg_status st = cdp_stop(L);
  if (st == GG_ERR_TIMEOUT) return st;
  gg_array_free(L->ticket);
  gg_array_free(L->x);
  gg_array_free(L->box_arr);
  gg_stream_free(L->stream);
  gg_module_free(L->mod);
  free(L->source);
  memset(L, 0, sizeof *L);
  return st;
}

/* Stop, copy x's first n ints back, close. */
static inline gg_status cdp_close_keep_x(cdp_loop *L, int *back, long long n) {
  gg_status st = cdp_stop(L);
  if (!st && L->x) st = gg_copy_to_host(back, L->x, 0, (size_t)n * sizeof *back, NULL);
  gg_status cst = cdp_close(L);
  return st ? st : cst;
}

#endif /* GG_CDP_HOST_H */
