/*
 * backend.h - the runtime's view of a vendor library (internal).
 *
 * A ggr_backend is a table of function pointers filled by dlsym from
 * libcuda.so.1 (runtime/cuda.c) or libamdhip64.so.5 (runtime/hip.c).
 * Everything above this layer (context, arrays, launch, sessions) calls the
 * vendor only through it, so the differences between CUDA and HIP stay in
 * those two files.
 *
 * Conventions, the same for every entry:
 *   - the return value is the vendor's own error code (CUresult /
 *     hipError_t); 0 is success.  ggr_status_of() maps it to a gg_status and
 *     err_name() / err_string() describe it.
 *   - handles (context, module, function, stream, event, graph) are opaque
 *     `void *`; a NULL stream is the legacy default stream.
 *   - device addresses are ggr_dptr (CUdeviceptr is 64-bit on every LP64
 *     platform; hipDeviceptr_t is a void * of the same size).
 *
 * No vendor header is included: the few types and enum values we need are
 * declared in cuda.c / hip.c, so the runtime builds with no toolkit at all.
 *
 * The ggr_compiler table does the same for NVRTC / hiprtc; it needs no
 * device and no context (gg_compile and `gpugen check` use it alone).
 */
#ifndef GGR_BACKEND_H
#define GGR_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "gg.h"

typedef uint64_t ggr_dptr;

/* Device attributes the runtime asks for; each backend maps them to its own
 * enum values. */
typedef enum ggr_attr {
  GGR_ATTR_SM_COUNT,          /* multiprocessors / compute units */
  GGR_ATTR_CC_MAJOR,          /* compute capability (CUDA); gfx major (HIP) */
  GGR_ATTR_CC_MINOR,
  GGR_ATTR_COOPERATIVE,       /* cooperative launch supported */
  GGR_ATTR_CAN_MAP_HOST,      /* host memory can be mapped (zero-copy) */
  GGR_ATTR_MANAGED,           /* managed memory supported */
  GGR_ATTR_COUNT
} ggr_attr;

typedef struct ggr_backend {
  gg_backend kind;
  const char *name;           /* "CUDA" / "HIP", for messages */
  const char *lib_path;       /* the file that was dlopen'ed */
  void *lib;                  /* dlopen handle */

  /* ---- device ---- */
  int (*init)(void);
  int (*driver_version)(int *version);
  int (*device_count)(int *n);
  int (*device_name)(char *buf, int len, int ordinal);
  int (*device_attr)(int *value, ggr_attr attr, int ordinal);
  /* Target arch of the device as the compiler spells it: "sm_90",
   * "gfx90a".  buf gets at least 32 bytes. */
  int (*device_arch)(char *buf, size_t len, int ordinal);

  /* ---- context (CUDA: the device's primary context, retained) ---- */
  int (*ctx_create)(void **ctx, int ordinal);
  int (*ctx_destroy)(void *ctx, int ordinal);
  /* A green context on part of the device's SMs: the first `sms` of them
   * as the driver splits the device (rest 0), or those left after them
   * (rest 1).  *ctx: made current, used like ctx_create's; *green: what
   * green_destroy frees; *got: its SM count.  NULL where the backend has
   * no SM partitions (HIP; a CUDA driver older than 12.4). */
  int (*ctx_create_partition)(void **ctx, void **green, int *got, int ordinal, int sms, int rest);
  int (*green_destroy)(void *green);
  /* Make ctx current on the calling thread (CUDA contexts are per thread). */
  int (*ctx_set_current)(void *ctx, int ordinal);
  int (*ctx_sync)(void);

  /* ---- modules ---- */
  int (*module_load)(void **mod, const void *image); /* cubin, PTX or code object */
  int (*module_unload)(void *mod);
  int (*module_function)(void **fn, void *mod, const char *symbol);
  /* Blocks of fn co-resident on one SM with `block` threads and `smem`
   * bytes of dynamic shared memory. */
  int (*occupancy)(int *blocks, void *fn, int block, size_t smem);
  /* Let fn use up to `bytes` of dynamic shared memory per block: CUDA
   * needs this opt-in above 48 KiB (the device's opt-in limit is the
   * most it grants).  NULL where no opt-in exists (HIP: the LDS size is
   * the limit for every function). */
  int (*func_max_shared)(void *fn, int bytes);

  /* ---- launch: 1-D grid, params as cuLaunchKernel takes them ---- */
  int (*launch)(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                void **params);
  /* A plain launch that may overlap the previous kernel of the stream
   * (programmatic dependent launch: the kernel waits for it itself, with
   * griddepcontrol.wait).  NULL where there is none (HIP, CUDA < 11.8). */
  int (*launch_pdl)(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                    void **params);
  /* NULL when the library has no cooperative module launch (hip 5.2). */
  int (*launch_cooperative)(void *fn, unsigned grid, unsigned block, unsigned smem,
                            void *stream, void **params);

  /* ---- streams and events ---- */
  int (*stream_create)(void **stream);  /* non-blocking w.r.t. the default stream */
  int (*stream_destroy)(void *stream);
  int (*stream_sync)(void *stream);
  int (*stream_query)(void *stream);    /* 0 done, the vendor's NOT_READY otherwise */
  int (*event_create)(void **event);
  int (*event_destroy)(void *event);
  int (*event_record)(void *event, void *stream);
  int (*event_sync)(void *event);
  int (*event_elapsed)(float *ms, void *start, void *end);

  /* ---- memory ---- */
  int (*mem_alloc)(ggr_dptr *p, size_t bytes);
  int (*mem_free)(ggr_dptr p);
  /* Pinned host memory; mapped = 1 also maps it into the device's address
   * space (zero-copy), portable across contexts either way. */
  int (*host_alloc)(void **p, size_t bytes, int mapped);
  int (*host_free)(void *p);
  int (*host_device_ptr)(ggr_dptr *d, void *host);
  int (*managed_alloc)(ggr_dptr *p, size_t bytes);
  /* Copies between any two addresses (unified addressing: the driver
   * infers the direction), queued on a stream (NULL: the legacy default
   * stream).  The runtime never uses the driver's "synchronous" calls:
   * they return once a pageable host buffer is staged, before its DMA
   * lands, and a memset or a device-to-device copy is asynchronous to the
   * host (CUDA's API synchronization behaviour), so a running persistent
   * kernel's next frame, or a launch on a non-blocking stream, could read
   * old bytes.  A copy that must have landed on return is queued on the
   * default stream and that stream waited for (device.c,
   * ggr_copy_landed): after launches made with no stream, and (like
   * cudaMemcpy) after work queued on blocking streams of the process;
   * never after a gg_stream or a session (both non-blocking). */
  int (*memcpy_async)(ggr_dptr dst, ggr_dptr src, size_t bytes, void *stream);
  int (*memset_async)(ggr_dptr dst, unsigned char value, size_t bytes, void *stream);

  /* ---- errors ---- */
  const char *(*err_name)(int code);    /* never NULL */
  const char *(*err_string)(int code);  /* never NULL */

  /* ---- graphs (the benchmarks' comparison rows); NULL if missing ---- */
  int (*capture_begin)(void *stream);
  int (*capture_end)(void *stream, void **graph);
  int (*graph_instantiate)(void **exec, void *graph);
  int (*graph_launch)(void *exec, void *stream);
  int (*graph_destroy)(void *graph);
  int (*graph_exec_destroy)(void *exec);
} ggr_backend;

/* Dynamic shared memory any function may use without an opt-in. */
#define GGR_SHARED_DEFAULT (48u * 1024u)

/* Allow fn `bytes` of dynamic shared memory when that is above the
 * default (the vendor's code; 0 when nothing was needed or possible). */
static inline int ggr_allow_shared(const ggr_backend *be, void *fn, size_t bytes)
{
  if (bytes <= GGR_SHARED_DEFAULT || !be->func_max_shared) return 0;
  return be->func_max_shared(fn, (int)bytes);
}

/* Vendor error codes the layer above needs to tell apart.  CUDA and HIP
 * share these numbers (hipError_t copies CUresult). */
enum {
  GGR_E_OUT_OF_MEMORY = 2,
  GGR_E_NOT_INITIALIZED = 3,
  GGR_E_STUB_LIBRARY = 34,
  GGR_E_NO_DEVICE = 100,
  GGR_E_INVALID_DEVICE = 101,
  GGR_E_INVALID_IMAGE = 200,
  GGR_E_INVALID_CONTEXT = 201,
  GGR_E_NO_BINARY_FOR_GPU = 209,
  GGR_E_INVALID_PTX = 218,
  GGR_E_UNSUPPORTED_PTX_VERSION = 222,
  GGR_E_NOT_READY = 600,
  GGR_E_ILLEGAL_ADDRESS = 700,
  GGR_E_LAUNCH_OUT_OF_RESOURCES = 701,
  GGR_E_LAUNCH_TIMEOUT = 702,
  GGR_E_LAUNCH_FAILED = 719,
  GGR_E_COOPERATIVE_TOO_LARGE = 720
};

/* Load a backend: dlopen its library (CUDA: $GG_CUDA_LIBRARY, else
 * libcuda.so.1; HIP: $GG_HIP_LIBRARY, else libamdhip64.so.5 /
 * libamdhip64.so) and resolve every entry.  On failure returns
 * GG_ERR_NO_LIBRARY with a message naming the file in err.  Free with
 * ggr_backend_unload(). */
gg_status ggr_cuda_load(ggr_backend **out, char *err, size_t errlen);
gg_status ggr_hip_load(ggr_backend **out, char *err, size_t errlen);
void ggr_backend_unload(ggr_backend *be);
/* ggr_hip_dlopen (the HIP runtime, which holds hiprtc too) is in toolkit.h. */

/* The gg_status for a vendor error code. */
gg_status ggr_status_of(int code);

/* ---- run-time compilers: NVRTC / hiprtc ---- */

typedef struct ggr_compiler {
  gg_backend kind;
  const char *name;           /* "NVRTC" / "hiprtc" */
  char lib_path[512];
  void *lib;
  int version_major, version_minor;
  char include_opts[2][600];  /* NVRTC: -I$CUDA_HOME/include, -I.../cccl */
  char builtins_note[700];    /* NVRTC: why its builtins library was not preloaded */
  int ninclude_opts;

  int (*create)(void **prog, const char *src, const char *name, int nheaders,
                const char *const *headers, const char *const *include_names);
  int (*compile)(void *prog, int nopts, const char *const *opts);
  int (*log_size)(void *prog, size_t *n);
  int (*log)(void *prog, char *buf);
  int (*code_size)(void *prog, size_t *n);     /* cubin / code object */
  int (*code)(void *prog, char *buf);
  int (*ptx_size)(void *prog, size_t *n);      /* NVRTC only, else NULL */
  int (*ptx)(void *prog, char *buf);
  int (*destroy)(void **prog);
  const char *(*err_string)(int code);
  /* NVRTC: sm numbers it can target (80, 90, ...); NULL for hiprtc. */
  int (*num_archs)(int *n);
  int (*archs)(int *list);
} ggr_compiler;

/* Load NVRTC (from the CUDA toolkit, toolkit.c) or hiprtc (inside
 * libamdhip64).  GG_ERR_NO_LIBRARY names the files tried. */
gg_status ggr_compiler_load(gg_backend kind, ggr_compiler **out, char *err, size_t errlen);
void ggr_compiler_unload(ggr_compiler *c);

/* Compile with a loaded compiler (what gg_compile does after loading). */
gg_status ggr_compile_with(ggr_compiler *c, const char *arch, const char *name,
                           const char *source, const char *const *options,
                           gg_compile_result *res);
/* ggr_compile_with plus what the module's kernels' features need
 * (features.c; GG_FEAT_MATHDX: MathDx's include folders; GG_ERR_NO_LIBRARY
 * with the install command in the log where MathDx is missing). */
gg_status ggr_compile_features(ggr_compiler *c, const char *arch, const char *name,
                               const char *source, const char *const *options, unsigned features,
                               gg_compile_result *res);
/* How many of `features` add to the compile that way (GG_FEAT_MATHDX,
 * GG_FEAT_NVSHMEM: all CUDA only), and their names for a message in words
 * ("A", "A and B", "A, B and C"). */
int ggr_compiled_features(unsigned features, char *words, size_t n);
/* res->log = fmt with the two strings a and b (replacing any log). */
void ggr_set_log(gg_compile_result *res, const char *fmt, const char *a, const char *b);
/* The end of a failed gg_compile / gg_compile_rdc: st into res->status,
 * and the calling thread's error detail says so, followed by the log. */
gg_status ggr_compile_failed(gg_compile_result *res, gg_status st);

#endif /* GGR_BACKEND_H */
