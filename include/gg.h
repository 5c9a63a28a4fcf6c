/*
 * gg.h - the gpugen runtime: JIT-compile generated kernels at start-up,
 * cache the binaries, move data explicitly, and dispatch.
 *
 * Style: opaque handles with _open/_free pairs; every fallible call returns
 * a gg_status, gg_strerror() names the code and gg_error_detail() says
 * what went wrong (below).  Handles may be NULL: a call returning a status
 * then gives GG_ERR_INVALID, the others a neutral value (NULL, 0, ""),
 * frees do nothing.  Nothing here copies or synchronizes behind your back:
 * the calls that move data or wait say so in their names.
 *
 * Errors.  When a call returns a status other than GG_OK it has written
 * the detail of that failure to a buffer of the calling thread, and
 * gg_error_detail() returns it: one line (for a compile error: a line,
 * then the compiler's log, whose lines point into the workload file).
 * Read it on the same thread right after the failing call; any later
 * gg_ / gg_session_ / gg_rt_ call on that thread may replace it (calls
 * that succeed usually leave it alone, but do not rely on it).  It is
 * per thread, not per handle, because handles are shared between threads
 * (one context serves launches from many threads): two threads that fail
 * at the same time each read their own detail.  This is the only way the
 * runtime reports details; gg_compile also hands the log in its result.
 *
 * Threads.  The runtime locks only its own bookkeeping (the device's
 * running persistent kernels, a context's kept mailboxes), never a call's
 * work; what may run at the same time:
 *   - gg_context: gg_context_open and gg_context_free, gg_module_load,
 *     gg_module_load_rdc and gg_module_free change the context's list of
 *     modules: call them from one thread at a time per context (and not
 *     while other threads use that context's modules).  Every other call
 *     on a context and on what it holds - gg_kernel_get, launches, graphs,
 *     arrays, copies, streams, events, gg_device_sync, the getters - may
 *     run from any threads at once (each thread makes the context current
 *     for itself), as long as no thread frees an object another uses.
 *   - gg_kernel: a kernel with a workspace or a launch sequence (hidden
 *     params: reductions, scans, a gemm with split_k) shares that workspace between its
 *     launches, so launches of the same such kernel must not overlap on
 *     the device: launch it from one stream, or sync between.  Other
 *     kernels may be launched from any threads on any streams at once.
 *   - gg_stream, gg_event, gg_graph: usable from any thread; the order of
 *     work on one stream is the order in which the calls were made.
 *   - gg_session (gg_session.h): one thread at a time drives a session
 *     (start, wait, run, heartbeat, terminate, statistics: a single
 *     producer of frames); several sessions may be driven from several
 *     threads.  While a session runs, gg_device_sync on its context is
 *     refused and some calls wait for it: gg_session.h lists them.
 *   - gg_pack_args, gg_compile, the gg_module_desc_* listing and
 *     gg_strerror touch no shared state: any thread, any time.
 */
#ifndef GG_H
#define GG_H

#include <stddef.h>
#include <stdint.h>

#include "gg_module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gg_status {
  GG_OK = 0,
  GG_ERR_INVALID = -1,        /* a bad argument */
  GG_ERR_NO_LIBRARY = -2,     /* libcuda / libnvrtc / libamdhip64 not found */
  GG_ERR_NO_DEVICE = -3,      /* the library is there but no device is */
  GG_ERR_COMPILE = -4,        /* NVRTC / hiprtc rejected the source */
  GG_ERR_LAUNCH = -5,         /* the driver refused the launch */
  GG_ERR_OUT_OF_MEMORY = -6,
  GG_ERR_UNSUPPORTED = -7,    /* the device lacks a feature the kernel needs */
  GG_ERR_NOT_CORESIDENT = -8, /* cooperative grid larger than the device holds */
  GG_ERR_TIMEOUT = -9,        /* a wait ran past its timeout */
  GG_ERR_KERNEL_FAULT = -10,  /* the kernel trapped or faulted; context is lost */
  GG_ERR_CACHE = -11,         /* cache problem (reported, then worked around) */
  GG_ERR_IO = -12,
  GG_ERR_BACKEND = -13,       /* any other driver error (gg_error_detail names it) */
  GG_ERR_NOT_FOUND = -14,     /* no kernel / command of that name or id */
  GG_ERR_STATE = -15          /* call not valid in the object's current state */
} gg_status;

const char *gg_strerror(gg_status s);
const char *gg_version(void);

typedef enum gg_backend { GG_BACKEND_AUTO = 0, GG_BACKEND_CUDA, GG_BACKEND_HIP } gg_backend;

typedef struct gg_context gg_context;
typedef struct gg_module gg_module;
typedef struct gg_kernel gg_kernel;
typedef struct gg_array gg_array;
typedef struct gg_stream gg_stream;
typedef struct gg_event gg_event;

/* ---- offline compilation (no device needed; used by `gpugen check`) ---- */

typedef struct gg_compile_result {
  gg_status status;
  char *log;          /* compiler log, malloc'ed, may be NULL */
  void *binary;       /* cubin / PTX / code object, malloc'ed */
  size_t binary_size;
} gg_compile_result;

/* Compile `source` for `arch` ("sm_90", "gfx90a", ...) with the backend's
 * compiler, loaded at run time.  Options are those the module descriptor
 * carries.  Fills *res; free it with gg_compile_result_free(). */
gg_status gg_compile(gg_backend backend, const char *arch, const char *name,
                     const char *source, const char *const *options,
                     gg_compile_result *res);
/* gg_compile for a module whose kernels need `features` (their GG_FEAT_*
 * bits OR-ed): GG_FEAT_MATHDX adds MathDx's include folders
 * ($GG_MATHDX_DIR, else the folder configured at build time), and gives
 * GG_ERR_NO_LIBRARY, with the command that installs MathDx in the log,
 * where it is missing.  GG_FEAT_NVSHMEM (an sm_XX arch only) compiles
 * with NVSHMEM's include folder ($GG_NVSHMEM_DIR, else the folder
 * configured at build time) and -rdc=true, then links the result with
 * libnvshmem_device.a through nvJitLink into a loadable cubin; where
 * NVSHMEM is missing, GG_ERR_NO_LIBRARY with its install command.  gpugen
 * check and gg_module_load compile this way. */
gg_status gg_compile_features(gg_backend backend, const char *arch, const char *name,
                              const char *source, const char *const *options,
                              unsigned features, gg_compile_result *res);
/* 1 when the MathDx headers the runtime would compile with are there; 0
 * with why (naming the install command) in `why` when not. */
int gg_mathdx_available(char *why, size_t n);
/* The same for NVSHMEM's folder (headers, device and host libraries). */
int gg_nvshmem_available(char *why, size_t n);
void gg_compile_result_free(gg_compile_result *res);
/* Is this arch one the loaded compiler knows?  (hiprtc aborts on unknown
 * archs, so this is checked before every hiprtc call.) */
int gg_arch_supported(gg_backend backend, const char *arch);

/* ---- context ---- */

typedef struct gg_context_options {
  gg_backend backend;       /* AUTO: CUDA if present, else HIP */
  int device;               /* ordinal, default 0 */
  /* NULL: $GG_CACHE_DIR, else $XDG_CACHE_HOME/gpugen, else ~/.cache/gpugen.
   * It must be a folder only the user controls (owned by the user, not
   * writable by others, not a symbolic link, below folders only the user
   * or root can write); otherwise the disk cache is off, with one warning
   * on stderr (docs/internals.md, "Runtime internals"). */
  const char *cache_dir;
  int no_disk_cache;        /* 1: never read or write the disk cache */
  uint64_t cache_limit;     /* bytes; 0: 256 MiB */
  int verbose;              /* 1: report cache misses, corrupt entries, ... on stderr */
  /* An SM partition (CUDA with a 12.4+ driver; docs/isolation.md).  0:
   * every SM.  N > 0: the context runs on a green context holding the
   * first N SMs as the driver splits the device, rounded up to its
   * granularity (8 on an H100): every kernel, session and stream of the
   * context stays on those SMs, and gg_context_sm_count says how many it
   * got.  Other work of the process still runs anywhere unless it too is
   * confined: sm_rest. */
  int sm_count;
  int sm_rest;              /* with sm_count: the SMs left after those N instead */
} gg_context_options;

/* The detail of the calling thread's last failure (never NULL; "" before
 * any): see "Errors" above. */
const char *gg_error_detail(void);

gg_status gg_context_open(gg_context **out, const gg_context_options *opt /* NULL = defaults */);
void gg_context_free(gg_context *ctx);
/* What the context runs on.  ctx NULL: GG_BACKEND_AUTO, "", "", 0. */
gg_backend gg_context_backend(const gg_context *ctx);
const char *gg_context_arch(const gg_context *ctx);    /* "sm_90", "gfx90a" */
const char *gg_context_device_name(const gg_context *ctx);
int gg_context_sm_count(const gg_context *ctx);

/* ---- modules and kernels ---- */

/* Compile (or fetch from the cache) and load a generated module.  Loading
 * the same descriptor twice in one context returns the same module.
 * While a persistent session runs on any context of the device, loading a
 * new module is refused (GG_ERR_STATE): the driver's module load waits for
 * every kernel of the device, and a session's runs until it terminates.
 * Load modules before opening sessions.  gg_module_free, gg_array_free,
 * gg_session_free and gg_context_free never wait for a session: while one
 * runs on the device, the driver's frees (which would) are put off until
 * the device's last session ends. */
gg_status gg_module_load(gg_context *ctx, const gg_module_desc *desc, gg_module **out);
void gg_module_free(gg_module *mod);
/* ---- device-side launch (dynamic parallelism), CUDA only ----
 * For modules whose kernels launch kernels: NVRTC compiles with -rdc=true
 * and nvJitLink (libnvJitLink.so.13, loaded at run time from the same
 * toolkit as NVRTC) links the result with $CUDA_HOME/lib64/libcudadevrt.a.
 * Loading shares, caches, allocates workspaces and frees exactly like
 * gg_module_load (one code path; gg_module_free).  HIP: GG_ERR_UNSUPPORTED.
 * gg_compile_rdc is the offline half (needs no device): a loadable cubin
 * for `arch` ("sm_90"). */
gg_status gg_module_load_rdc(gg_context *ctx, const gg_module_desc *desc, gg_module **out);
gg_status gg_compile_rdc(const char *arch, const char *name, const char *source,
                         const char *const *options, gg_compile_result *res);
gg_status gg_kernel_get(gg_module *mod, const char *name, gg_kernel **out);
const gg_kernel_desc *gg_kernel_describe(const gg_kernel *k);
gg_context *gg_module_context(gg_module *mod);

/* How a loaded module was made: whether its binary came from the disk
 * cache, and what building it cost.  (A module shared by a second
 * gg_module_load of the same descriptor keeps the figures of its first.) */
typedef struct gg_module_info {
  int from_disk_cache;   /* 1: the binary was read from the disk cache */
  int opened_compiler;   /* 1: this load opened NVRTC / hiprtc (to compile, or
                            on HIP to name the compiler for the cache key) */
  double compile_ms;     /* time in the compiler (0 on a cache hit) */
} gg_module_info;
gg_status gg_module_info_get(const gg_module *mod, gg_module_info *out);

/* ---- listing a module ----
 * Its kernels, its persistent kernels and their commands, by index, in
 * the order of the workload file (command i of a persistent kernel is
 * command id i of its sessions).  The gg_module_desc_* forms read a
 * generated descriptor (&gg_module_<name>) and need no device; the
 * gg_module_* forms read the descriptor a loaded module was made from.
 * Counts are 0 (command counts -1 when there is no such persistent
 * kernel) and names NULL for a NULL module or an index out of range.
 * `persistent` NULL means the module's first, as in gg_session_open.
 * A name that is not there makes gg_kernel_get, gg_session_open and
 * gg_session_command fail with GG_ERR_NOT_FOUND and a message listing the
 * names there are (with a "did you mean" for a near miss). */
int gg_module_desc_kernel_count(const gg_module_desc *d);
const char *gg_module_desc_kernel_name(const gg_module_desc *d, int i);
int gg_module_desc_persistent_count(const gg_module_desc *d);
const char *gg_module_desc_persistent_name(const gg_module_desc *d, int i);
int gg_module_desc_command_count(const gg_module_desc *d, const char *persistent);
const char *gg_module_desc_command_name(const gg_module_desc *d, const char *persistent, int cmd);
const gg_module_desc *gg_module_describe(const gg_module *mod);
int gg_module_kernel_count(const gg_module *mod);
const char *gg_module_kernel_name(const gg_module *mod, int i);
int gg_module_persistent_count(const gg_module *mod);
const char *gg_module_persistent_name(const gg_module *mod, int i);
int gg_module_command_count(const gg_module *mod, const char *persistent);
const char *gg_module_command_name(const gg_module *mod, const char *persistent, int cmd);

/* ---- arrays in the workload language's memory spaces ---- */

gg_status gg_array_alloc(gg_context *ctx, gg_space space, size_t bytes, gg_array **out);
void gg_array_free(gg_array *a);
size_t gg_array_bytes(const gg_array *a);
gg_space gg_array_space(const gg_array *a);
/* Host pointer for mapped, managed and host arrays; NULL for device arrays. */
void *gg_array_host(const gg_array *a);
/* A pinned host array of the same size: the mirror for explicit copies. */
gg_status gg_array_mirror(const gg_array *a, gg_array **mirror);

/* Explicit copies.  With a stream they are queued (asynchronous); with
 * NULL they run on the legacy default stream, after launches made with no
 * stream, and have landed when they return - a running session's next
 * frame, or a launch on any stream, sees the bytes.  Like cudaMemcpy,
 * they also wait for work queued before them on blocking CUDA streams of
 * the process (gpugen's own streams and sessions are non-blocking).
 * While a persistent session runs on the device, that wait (a copy or
 * fill with NULL) lasts at most 10 s, then GG_ERR_TIMEOUT: the work may
 * need SMs the session holds, and stays queued until it ends. */
gg_status gg_copy(gg_array *dst, size_t dst_off, const gg_array *src, size_t src_off,
                  size_t bytes, gg_stream *stream);
gg_status gg_copy_from_host(gg_array *dst, size_t dst_off, const void *src, size_t bytes,
                            gg_stream *stream);
gg_status gg_copy_to_host(void *dst, const gg_array *src, size_t src_off, size_t bytes,
                          gg_stream *stream);
gg_status gg_fill_zero(gg_array *a, gg_stream *stream);

/* ---- streams and events ---- */

gg_status gg_stream_open(gg_context *ctx, gg_stream **out);
void gg_stream_free(gg_stream *s);
gg_status gg_stream_sync(gg_stream *s);            /* s != NULL; for the default stream use gg_device_sync() */
/* Programmatic dependent launch (PDL) on stream s: enable 1 lets every
 * later gg_launch on s of a kernel whose descriptor has GG_FEAT_PDL (the
 * classic launches gpugen emits) start while the previous kernel of s
 * still runs; the kernel waits for it itself before touching memory
 * (griddepcontrol.wait), so results are those of plain stream order.
 * What it saves is the launch gap between dependent kernels, in a graph
 * too: launches captured from s keep the programmatic edges.  Other
 * kernels launch as before.  Off by default; GG_ERR_UNSUPPORTED unless
 * the device is CUDA sm_90+ with a driver that has cuLaunchKernelEx. */
gg_status gg_stream_set_pdl(gg_stream *s, int enable);
/* Wait for all work on the context.  Refused (GG_ERR_STATE) while a
 * persistent session runs on it, or, for a context on every SM
 * (sm_count 0), on any context of the device (the driver's wait covers the
 * SM partitions): a session's kernel runs until gg_session_terminate, so
 * the wait would never end (gg_session.h lists what else waits for it). */
gg_status gg_device_sync(gg_context *ctx);
gg_status gg_event_open(gg_context *ctx, gg_event **out);
void gg_event_free(gg_event *e);
gg_status gg_event_record(gg_event *e, gg_stream *s);
gg_status gg_event_elapsed_ms(gg_event *start, gg_event *end, float *ms);

/* ---- arguments and launch ---- */

/* An argument carries the type of the constructor that made it, and
 * packing (gg_launch, gg_session_start, gg_pack_args) checks it against
 * the parameter, naming both on a mismatch:
 *   - a view takes gg_arg_array() of a non-NULL array, and a view the
 *     kernel or frame writes shares no memory with another of its views
 *     (views are __restrict__, and a frame orders its stages by them);
 *     two views it only reads may share an array;
 *   - a view takes a device, mapped or managed array whatever `space` the
 *     workload declares for it (a kernel reads and writes them alike; the
 *     declaration only decides how a frame acknowledges); a GG_SPACE_HOST
 *     array is refused for every view (kernels cannot see it).  The one
 *     exception: gg_session_start refuses any array but a GG_SPACE_DEVICE
 *     one for a view that a frame with a relaxed acknowledgement writes,
 *     other than its result (gg_session.h);
 *   - an integer parameter (extents and strides are i64) takes any integer
 *     constructor whose value fits the parameter's type;
 *   - a floating-point parameter takes exactly its own constructor
 *     (gg_arg_f32 for f32, gg_arg_f64 for f64, ...): a value is never
 *     converted between floating types or between integer and floating.
 * gg_arg_f16 and gg_arg_bf16 take a float and pack it rounded to nearest
 * (ties to even); a finite value beyond the type's range is refused, not
 * packed as infinity.  A gg_arg not made by a constructor (all zero) is
 * refused. */
typedef enum gg_arg_type {
  GG_ARG_NONE = 0, GG_ARG_ARRAY, GG_ARG_I32, GG_ARG_U32, GG_ARG_I64, GG_ARG_U64, GG_ARG_F32,
  GG_ARG_F64, GG_ARG_F16, GG_ARG_BF16
} gg_arg_type;

typedef struct gg_arg {
  gg_arg_type type;
  union {
    int32_t i32; uint32_t u32; int64_t i64; uint64_t u64;
    float f32; double f64; gg_array *array;
  } v; /* f16 and bf16 keep their float in f32 until packed */
} gg_arg;

static inline gg_arg gg_arg_array(gg_array *a) { gg_arg r; r.type = GG_ARG_ARRAY; r.v.u64 = 0; r.v.array = a; return r; }
static inline gg_arg gg_arg_i32(int32_t x) { gg_arg r; r.type = GG_ARG_I32; r.v.u64 = 0; r.v.i32 = x; return r; }
static inline gg_arg gg_arg_u32(uint32_t x) { gg_arg r; r.type = GG_ARG_U32; r.v.u64 = 0; r.v.u32 = x; return r; }
static inline gg_arg gg_arg_i64(int64_t x) { gg_arg r; r.type = GG_ARG_I64; r.v.i64 = x; return r; }
static inline gg_arg gg_arg_u64(uint64_t x) { gg_arg r; r.type = GG_ARG_U64; r.v.u64 = x; return r; }
static inline gg_arg gg_arg_f32(float x) { gg_arg r; r.type = GG_ARG_F32; r.v.u64 = 0; r.v.f32 = x; return r; }
static inline gg_arg gg_arg_f64(double x) { gg_arg r; r.type = GG_ARG_F64; r.v.f64 = x; return r; }
static inline gg_arg gg_arg_f16(float x) { gg_arg r; r.type = GG_ARG_F16; r.v.u64 = 0; r.v.f32 = x; return r; }
static inline gg_arg gg_arg_bf16(float x) { gg_arg r; r.type = GG_ARG_BF16; r.v.u64 = 0; r.v.f32 = x; return r; }

/* Arguments are given in the order of the descriptor's params that are
 * not GG_PARAM_HIDDEN: declared params, then run-time extents, then
 * strides.  Views take gg_arg_array(); the array must be large enough for
 * the extents given.  Pack them into the kernel's argument struct
 * (GG_ERR_INVALID, with gg_error_detail() naming the parameter).  nargs
 * must be exactly that count: too few or too many is GG_ERR_INVALID
 * ("kernel k takes 3 arguments, 2 given"), for gg_launch, gg_launch_grid
 * and gg_session_start too, before anything is launched or posted. */
gg_status gg_pack_args(const gg_kernel_desc *kd, const gg_arg *args, int nargs,
                       void *buf, size_t buf_size);

/* Launch on a stream (NULL = default stream); asynchronous.  The grid
 * follows the descriptor's rule; cooperative kernels are launched
 * cooperatively, and refused with GG_ERR_NOT_CORESIDENT or
 * GG_ERR_UNSUPPORTED when the device can't hold the grid.  Arguments as
 * for gg_pack_args: a wrong count or a refused argument is GG_ERR_INVALID
 * and launches nothing; a frame (mode GG_LAUNCH_PERSISTENT) is
 * GG_ERR_STATE: it runs through a session (gg_session.h). */
gg_status gg_launch(gg_kernel *k, gg_stream *s, const gg_arg *args, int nargs);
/* The same with an explicit grid (blocks) - for tests and benchmarks. */
gg_status gg_launch_grid(gg_kernel *k, gg_stream *s, int blocks, const gg_arg *args, int nargs);
/* Blocks of this kernel that are co-resident on the device. */
gg_status gg_kernel_max_resident_blocks(gg_kernel *k, int *blocks);

/* ---- graphs: capture launches once, replay them with one call ----
 *
 *   gg_graph_capture_begin(s, &g);      s: a stream from gg_stream_open
 *   gg_launch(k1, s, ...); gg_copy(..., s); ...   recorded, NOT run
 *   gg_graph_capture_end(g);            instantiates the graph
 *   gg_graph_launch(g, s2) ...          replay, asynchronous, any stream
 *   gg_graph_free(g);
 *
 * (CUDA graphs; HIP graphs where the HIP runtime has them, else
 * GG_ERR_UNSUPPORTED.)  Only work queued on the capturing stream is
 * recorded; a call that synchronizes (gg_copy with a NULL stream,
 * gg_stream_sync, gg_device_sync) from the capturing thread breaks the
 * capture, and gg_graph_capture_end then reports it.  The legacy default
 * stream cannot be captured (GG_ERR_INVALID).
 *
 * What a replay reuses, frozen at capture time: every argument value
 * (scalars, extents) and every array's address - the arrays' CONTENTS are
 * read at replay, so refill inputs between replays, and free the graph
 * before the arrays it uses.  The kernels' hidden arguments are frozen
 * too: the workspace address is safe (kernels leave their workspace as
 * they found it), but the launch sequence number gg_seq is not: kernels
 * that need a fresh gg_seq at every launch (scans tell this launch's
 * look-back flags from stale ones by it) would misread their flags on
 * replay, so gg_graph_capture_end refuses a capture in which such a
 * kernel was launched (GG_ERR_UNSUPPORTED, naming it).  The check
 * compares each gg_seq kernel's launch counter at begin and end, so it
 * also refuses when another thread launches one during the capture.
 * Replays of one graph, and a replay and a gg_launch of the same kernel,
 * share that kernel's workspace: do not run them concurrently on two
 * streams (one stream, or a sync between, is fine). */
typedef struct gg_graph gg_graph;

/* Start recording stream s (s != NULL).  *out is the graph being
 * captured; end it with gg_graph_capture_end (or gg_graph_free, which
 * ends the capture and drops what was recorded). */
gg_status gg_graph_capture_begin(gg_stream *s, gg_graph **out);
/* Stop recording and instantiate.  On failure the stream is out of
 * capture mode and g can only be freed. */
gg_status gg_graph_capture_end(gg_graph *g);
/* Replay the whole graph on s (NULL = default stream); asynchronous. */
gg_status gg_graph_launch(gg_graph *g, gg_stream *s);
void gg_graph_free(gg_graph *g);

/* ---- backend handles, for benchmarks that compare with bare driver calls ---- */
void *gg_kernel_native_function(gg_kernel *k);  /* CUfunction / hipFunction_t */
void *gg_stream_native(gg_stream *s);           /* CUstream / hipStream_t */
void *gg_array_native(const gg_array *a);       /* device pointer value */

#ifdef __cplusplus
}
#endif
#endif /* GG_H */
