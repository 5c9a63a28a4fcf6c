/*
 * hip.c - the HIP module API behind ggr_backend, loaded with dlopen.
 *
 * Declares only what it uses (no hip headers), with the numbers of ROCm
 * 5.2's hip_runtime_api.h.  This path builds and compiles kernels here
 * (hiprtc needs no GPU) but has never run on an AMD GPU: see README.
 *
 * Differences from cuda.c, all small:
 *   - no explicit context: hipSetDevice() makes the device current;
 *   - the arch name comes from hipDeviceProp_t.gcnArchName (no attribute
 *     gives it), read at its 5.2 offset from a generously sized buffer;
 *   - cooperative module launch (hipModuleLaunchCooperativeKernel) only
 *     exists from ROCm 5.5; without it cooperative kernels get
 *     GG_ERR_UNSUPPORTED.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "toolkit.h"

typedef int hipError_t;
typedef void *hipModule_t, *hipFunction_t, *hipStream_t, *hipEvent_t, *hipGraph_t, *hipGraphExec_t;

enum { /* hipDeviceAttribute_t, ROCm 5.2 */
  HIP_ATTR_CAN_MAP_HOST = 3, HIP_ATTR_COOPERATIVE = 10, HIP_ATTR_CC_MAJOR = 23,
  HIP_ATTR_MANAGED = 24, HIP_ATTR_SM_COUNT = 63
};
/* Not in the enum until later ROCm: the minor version.  We report 0. */
enum { HIP_HOST_MALLOC_PORTABLE = 1, HIP_HOST_MALLOC_MAPPED = 2 };
enum { HIP_MEM_ATTACH_GLOBAL = 1, HIP_MEMCPY_DEFAULT = 4, HIP_STREAM_NON_BLOCKING = 1 };
enum { HIP_CAPTURE_THREAD_LOCAL = 1 };
/* offsetof(hipDeviceProp_t, gcnArchName) and sizeof(hipDeviceProp_t) in
 * ROCm 5.2 (396 and 792); the buffer is larger in case a newer runtime
 * grew the struct. */
enum { HIP_PROP_ARCH_OFFSET = 396, HIP_PROP_BUF = 4096 };

typedef struct hip_api {
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipDriverGetVersion)(int *);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipDeviceGet)(int *, int);
  hipError_t (*hipDeviceGetName)(char *, int, int);
  hipError_t (*hipDeviceGetAttribute)(int *, int, int);
  hipError_t (*hipGetDeviceProperties)(void *, int);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceSynchronize)(void);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)(int *, hipFunction_t, int,
                                                                    size_t);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, hipStream_t, void **,
                                      void **);
  hipError_t (*hipModuleLaunchCooperativeKernel)(hipFunction_t, unsigned, unsigned, unsigned,
                                                 unsigned, unsigned, unsigned, unsigned,
                                                 hipStream_t, void **);
  hipError_t (*hipStreamCreateWithFlags)(hipStream_t *, unsigned);
  hipError_t (*hipStreamDestroy)(hipStream_t);
  hipError_t (*hipStreamSynchronize)(hipStream_t);
  hipError_t (*hipStreamQuery)(hipStream_t);
  hipError_t (*hipEventCreate)(hipEvent_t *);
  hipError_t (*hipEventDestroy)(hipEvent_t);
  hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t);
  hipError_t (*hipEventSynchronize)(hipEvent_t);
  hipError_t (*hipEventElapsedTime)(float *, hipEvent_t, hipEvent_t);
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipHostMalloc)(void **, size_t, unsigned);
  hipError_t (*hipHostFree)(void *);
  hipError_t (*hipHostGetDevicePointer)(void **, void *, unsigned);
  hipError_t (*hipMallocManaged)(void **, size_t, unsigned);
  hipError_t (*hipMemcpyAsync)(void *, const void *, size_t, int, hipStream_t);
  hipError_t (*hipMemsetAsync)(void *, int, size_t, hipStream_t);
  const char *(*hipGetErrorName)(hipError_t);
  const char *(*hipGetErrorString)(hipError_t);
  hipError_t (*hipStreamBeginCapture)(hipStream_t, int);
  hipError_t (*hipStreamEndCapture)(hipStream_t, hipGraph_t *);
  hipError_t (*hipGraphInstantiate)(hipGraphExec_t *, hipGraph_t, void **, char *, size_t);
  hipError_t (*hipGraphLaunch)(hipGraphExec_t, hipStream_t);
  hipError_t (*hipGraphDestroy)(hipGraph_t);
  hipError_t (*hipGraphExecDestroy)(hipGraphExec_t);
} hip_api;

/* Filled once by the first successful load, read-only after (see cuda.c). */
static hip_api hp;
static int hp_resolved;
static pthread_mutex_t hp_lock = PTHREAD_MUTEX_INITIALIZER;

static void *P(ggr_dptr p) { return (void *)(uintptr_t)p; }

static int w_init(void) { return hp.hipInit(0); }
static int w_driver_version(int *v) { return hp.hipDriverGetVersion(v); }
static int w_device_count(int *n) { return hp.hipGetDeviceCount(n); }
static int w_device_name(char *buf, int len, int ord) { return hp.hipDeviceGetName(buf, len, ord); }

static int w_device_attr(int *value, ggr_attr attr, int ord) {
  static const int map[GGR_ATTR_COUNT] = {
    [GGR_ATTR_SM_COUNT] = HIP_ATTR_SM_COUNT, [GGR_ATTR_CC_MAJOR] = HIP_ATTR_CC_MAJOR,
    [GGR_ATTR_CC_MINOR] = -1, [GGR_ATTR_COOPERATIVE] = HIP_ATTR_COOPERATIVE,
    [GGR_ATTR_CAN_MAP_HOST] = HIP_ATTR_CAN_MAP_HOST, [GGR_ATTR_MANAGED] = HIP_ATTR_MANAGED};
  if (map[attr] < 0) {
    *value = 0;
    return 0;
  }
  return hp.hipDeviceGetAttribute(value, map[attr], ord);
}

/* "gfx90a:sramecc+:xnack-" -> "gfx90a": hiprtc's --offload-arch wants the
 * bare name. */
static int w_device_arch(char *buf, size_t len, int ord) {
  char *prop = calloc(1, HIP_PROP_BUF);
  if (!prop) return GGR_E_OUT_OF_MEMORY;
  int r = hp.hipGetDeviceProperties(prop, ord);
  if (!r) {
    snprintf(buf, len, "%.31s", prop + HIP_PROP_ARCH_OFFSET);
    buf[strcspn(buf, ":")] = 0;
  }
  free(prop);
  return r;
}

static int w_ctx_create(void **ctx, int ord) { *ctx = NULL; return hp.hipSetDevice(ord); }
static int w_ctx_destroy(void *ctx, int ord) { return 0; }
static int w_ctx_set_current(void *ctx, int ord) { return hp.hipSetDevice(ord); }
static int w_ctx_sync(void) { return hp.hipDeviceSynchronize(); }

static int w_module_load(void **m, const void *image) { return hp.hipModuleLoadData(m, image); }
static int w_module_unload(void *m) { return hp.hipModuleUnload(m); }
static int w_module_function(void **fn, void *m, const char *sym) {
  return hp.hipModuleGetFunction(fn, m, sym);
}
static int w_occupancy(int *blocks, void *fn, int block, size_t smem) {
  return hp.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(blocks, fn, block, smem);
}
static int w_launch(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                    void **params) {
  return hp.hipModuleLaunchKernel(fn, grid, 1, 1, block, 1, 1, smem, stream, params, NULL);
}
static int w_launch_coop(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                         void **params) {
  return hp.hipModuleLaunchCooperativeKernel(fn, grid, 1, 1, block, 1, 1, smem, stream, params);
}

static int w_stream_create(void **s) { return hp.hipStreamCreateWithFlags(s, HIP_STREAM_NON_BLOCKING); }
static int w_stream_destroy(void *s) { return hp.hipStreamDestroy(s); }
static int w_stream_sync(void *s) { return hp.hipStreamSynchronize(s); }
static int w_stream_query(void *s) { return hp.hipStreamQuery(s); }
static int w_event_create(void **e) { return hp.hipEventCreate(e); }
static int w_event_destroy(void *e) { return hp.hipEventDestroy(e); }
static int w_event_record(void *e, void *s) { return hp.hipEventRecord(e, s); }
static int w_event_sync(void *e) { return hp.hipEventSynchronize(e); }
static int w_event_elapsed(float *ms, void *a, void *b) { return hp.hipEventElapsedTime(ms, a, b); }

static int w_mem_alloc(ggr_dptr *p, size_t n) {
  void *q = NULL;
  int r = hp.hipMalloc(&q, n);
  *p = (ggr_dptr)(uintptr_t)q;
  return r;
}
static int w_mem_free(ggr_dptr p) { return hp.hipFree(P(p)); }
static int w_host_alloc(void **p, size_t n, int mapped) {
  unsigned flags = HIP_HOST_MALLOC_PORTABLE | (mapped ? HIP_HOST_MALLOC_MAPPED : 0);
  return hp.hipHostMalloc(p, n, flags);
}
static int w_host_free(void *p) { return hp.hipHostFree(p); }
static int w_host_device_ptr(ggr_dptr *d, void *h) {
  void *q = NULL;
  int r = hp.hipHostGetDevicePointer(&q, h, 0);
  *d = (ggr_dptr)(uintptr_t)q;
  return r;
}
static int w_managed_alloc(ggr_dptr *p, size_t n) {
  void *q = NULL;
  int r = hp.hipMallocManaged(&q, n, HIP_MEM_ATTACH_GLOBAL);
  *p = (ggr_dptr)(uintptr_t)q;
  return r;
}
static int w_memcpy_async(ggr_dptr d, ggr_dptr s, size_t n, void *st) {
  return hp.hipMemcpyAsync(P(d), P(s), n, HIP_MEMCPY_DEFAULT, st);
}
static int w_memset_async(ggr_dptr d, unsigned char v, size_t n, void *st) {
  return hp.hipMemsetAsync(P(d), v, n, st);
}

static const char *w_err_name(int code) {
  const char *s = hp.hipGetErrorName ? hp.hipGetErrorName(code) : NULL;
  return s ? s : "hipErrorUnknown";
}
static const char *w_err_string(int code) {
  const char *s = hp.hipGetErrorString ? hp.hipGetErrorString(code) : NULL;
  return s ? s : "unknown error";
}

static int w_capture_begin(void *s) { return hp.hipStreamBeginCapture(s, HIP_CAPTURE_THREAD_LOCAL); }
static int w_capture_end(void *s, void **g) { return hp.hipStreamEndCapture(s, g); }
static int w_graph_instantiate(void **e, void *g) { return hp.hipGraphInstantiate(e, g, NULL, NULL, 0); }
static int w_graph_launch(void *e, void *s) { return hp.hipGraphLaunch(e, s); }
static int w_graph_destroy(void *g) { return hp.hipGraphDestroy(g); }
static int w_graph_exec_destroy(void *e) { return hp.hipGraphExecDestroy(e); }

static int resolve(void *lib, void *slot, const char *sym, int required, char *err, size_t n,
                   const char *path) {
  void *p = dlsym(lib, sym);
  memcpy(slot, &p, sizeof p);
  if (!p && required) {
    snprintf(err, n, "%s has no symbol %s (HIP runtime too old?)", path, sym);
    return -1;
  }
  return 0;
}

#define REQ(f) if (resolve(lib, &hp.f, #f, 1, err, errlen, path)) return -1
#define OPT(f) resolve(lib, &hp.f, #f, 0, err, errlen, path)

static int resolve_all(void *lib, const char *path, char *err, size_t errlen) {
  REQ(hipInit); REQ(hipDriverGetVersion); REQ(hipGetDeviceCount); REQ(hipDeviceGet);
  REQ(hipDeviceGetName); REQ(hipDeviceGetAttribute); REQ(hipGetDeviceProperties);
  REQ(hipSetDevice); REQ(hipDeviceSynchronize);
  REQ(hipModuleLoadData); REQ(hipModuleUnload); REQ(hipModuleGetFunction);
  REQ(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor); REQ(hipModuleLaunchKernel);
  OPT(hipModuleLaunchCooperativeKernel);
  REQ(hipStreamCreateWithFlags); REQ(hipStreamDestroy); REQ(hipStreamSynchronize);
  REQ(hipStreamQuery); REQ(hipEventCreate); REQ(hipEventDestroy); REQ(hipEventRecord);
  REQ(hipEventSynchronize); REQ(hipEventElapsedTime);
  REQ(hipMalloc); REQ(hipFree); REQ(hipHostMalloc); REQ(hipHostFree);
  REQ(hipHostGetDevicePointer); REQ(hipMallocManaged); REQ(hipMemcpyAsync);
  REQ(hipMemsetAsync); REQ(hipGetErrorName); REQ(hipGetErrorString);
  OPT(hipStreamBeginCapture); OPT(hipStreamEndCapture); OPT(hipGraphInstantiate);
  OPT(hipGraphLaunch); OPT(hipGraphDestroy); OPT(hipGraphExecDestroy);
  return 0;
}

static void fill(ggr_backend *be) {
  be->init = w_init; be->driver_version = w_driver_version; be->device_count = w_device_count;
  be->device_name = w_device_name; be->device_attr = w_device_attr;
  be->device_arch = w_device_arch;
  be->ctx_create = w_ctx_create; be->ctx_destroy = w_ctx_destroy;
  be->ctx_set_current = w_ctx_set_current; be->ctx_sync = w_ctx_sync;
  be->module_load = w_module_load; be->module_unload = w_module_unload;
  be->module_function = w_module_function; be->occupancy = w_occupancy;
  be->launch = w_launch;
  be->launch_cooperative = hp.hipModuleLaunchCooperativeKernel ? w_launch_coop : NULL;
  be->stream_create = w_stream_create; be->stream_destroy = w_stream_destroy;
  be->stream_sync = w_stream_sync; be->stream_query = w_stream_query;
  be->event_create = w_event_create; be->event_destroy = w_event_destroy;
  be->event_record = w_event_record; be->event_sync = w_event_sync;
  be->event_elapsed = w_event_elapsed;
  be->mem_alloc = w_mem_alloc; be->mem_free = w_mem_free; be->host_alloc = w_host_alloc;
  be->host_free = w_host_free; be->host_device_ptr = w_host_device_ptr;
  be->managed_alloc = w_managed_alloc;
  be->memcpy_async = w_memcpy_async;
  be->memset_async = w_memset_async;
  be->err_name = w_err_name; be->err_string = w_err_string;
  if (hp.hipStreamBeginCapture && hp.hipStreamEndCapture && hp.hipGraphInstantiate &&
      hp.hipGraphLaunch && hp.hipGraphDestroy && hp.hipGraphExecDestroy) {
    be->capture_begin = w_capture_begin; be->capture_end = w_capture_end;
    be->graph_instantiate = w_graph_instantiate; be->graph_launch = w_graph_launch;
    be->graph_destroy = w_graph_destroy; be->graph_exec_destroy = w_graph_exec_destroy;
  }
}

gg_status ggr_hip_load(ggr_backend **out, char *err, size_t errlen) {
  const char *path = NULL;
  *out = NULL;
  void *lib = ggr_hip_dlopen(&path, err, errlen);
  if (!lib) return GG_ERR_NO_LIBRARY;
  pthread_mutex_lock(&hp_lock);
  int bad = !hp_resolved && resolve_all(lib, path, err, errlen);
  if (!bad) hp_resolved = 1;
  pthread_mutex_unlock(&hp_lock);
  if (bad) {
    dlclose(lib);
    return GG_ERR_NO_LIBRARY;
  }
  ggr_backend *be = calloc(1, sizeof *be);
  if (!be) {
    dlclose(lib);
    snprintf(err, errlen, "out of host memory");
    return GG_ERR_OUT_OF_MEMORY;
  }
  be->kind = GG_BACKEND_HIP;
  be->name = "HIP";
  be->lib_path = path;
  be->lib = lib;
  fill(be);
  *out = be;
  return GG_OK;
}
