/*
 * cuda.c - the CUDA driver API behind ggr_backend, loaded with dlopen.
 *
 * Only the handful of types and enum values we use are declared here (no
 * cuda.h), with the numbers from CUDA's own header.  Entry points that the
 * driver versions with a suffix (_v2) are looked up by that exact symbol:
 * the unsuffixed names are the old ABI.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent, *CUgraph, *CUgraphExec;
typedef unsigned long long CUdeviceptr;

enum { /* CUdevice_attribute */
  CU_ATTR_SM_COUNT = 16, CU_ATTR_CAN_MAP_HOST = 19, CU_ATTR_CC_MAJOR = 75,
  CU_ATTR_CC_MINOR = 76, CU_ATTR_MANAGED = 83, CU_ATTR_COOPERATIVE = 95
};
enum { CU_MEMHOSTALLOC_PORTABLE = 1, CU_MEMHOSTALLOC_DEVICEMAP = 2 };
enum { CU_MEM_ATTACH_GLOBAL = 1 };
enum { CU_STREAM_NON_BLOCKING = 1 };
enum { CU_EVENT_DEFAULT = 0 };
enum { CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1 };
enum { CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6 };

/* cuLaunchKernelEx's arguments, laid out as cuda.h has them (CUDA 12). */
typedef struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union {
    char pad[64];
    int programmatic_stream_serialization_allowed;
  } value;
} CUlaunchAttribute;
typedef struct CUlaunchConfig {
  unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes;
  CUstream stream;
  CUlaunchAttribute *attrs;
  unsigned nattrs;
} CUlaunchConfig;

/* CUdevResource as cuda.h lays it out (RESOURCE_ABI_VERSION 1): the
 * type, 92 bytes of padding, then a 48-byte union whose SM member starts
 * with the SM count. */
enum { CU_DEV_RESOURCE_TYPE_SM = 1, CU_GREEN_CTX_DEFAULT_STREAM = 1 };
enum { CU_ERROR_INVALID_VALUE = 1 };
typedef struct CUdevResource {
  int type;
  unsigned char pad[92];
  union {
    struct { unsigned count, min_partition, coscheduled_alignment; } sm;
    unsigned char oversize[48];
  } u;
} CUdevResource;
typedef void *CUgreenCtx, *CUdevResourceDesc;

/* The driver's functions, resolved once per backend. */
typedef struct cuda_api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)(void);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncLoad)(CUfunction); /* CUDA 12.4+; NULL before */
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
  CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, unsigned, unsigned, CUstream, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamQuery)(CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphDestroy)(CUgraph);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuDeviceGetDevResource)(CUdevice, CUdevResource *, int);
  CUresult (*cuDevSmResourceSplitByCount)(CUdevResource *, unsigned *, const CUdevResource *,
                                          CUdevResource *, unsigned, unsigned);
  CUresult (*cuDevResourceGenerateDesc)(CUdevResourceDesc *, CUdevResource *, unsigned);
  CUresult (*cuGreenCtxCreate)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned);
  CUresult (*cuGreenCtxDestroy)(CUgreenCtx);
  CUresult (*cuCtxFromGreenCtx)(CUcontext *, CUgreenCtx);
} cuda_api;

/* The wrappers below have the ggr_backend signatures, which carry no
 * backend pointer, so they read this table.  It is filled once, under the
 * lock, by the first successful load in the process (there is one libcuda
 * per process anyway); later loads only take a dlopen reference, and
 * nothing writes it after that. */
static cuda_api cu;
static int cu_resolved;
static pthread_mutex_t cu_lock = PTHREAD_MUTEX_INITIALIZER;

static int w_init(void) { return cu.cuInit(0); }
static int w_driver_version(int *v) { return cu.cuDriverGetVersion(v); }
static int w_device_count(int *n) { return cu.cuDeviceGetCount(n); }
static int w_device_name(char *buf, int len, int ord) { return cu.cuDeviceGetName(buf, len, ord); }

static int w_device_attr(int *value, ggr_attr attr, int ord) {
  static const int map[GGR_ATTR_COUNT] = {
    [GGR_ATTR_SM_COUNT] = CU_ATTR_SM_COUNT, [GGR_ATTR_CC_MAJOR] = CU_ATTR_CC_MAJOR,
    [GGR_ATTR_CC_MINOR] = CU_ATTR_CC_MINOR, [GGR_ATTR_COOPERATIVE] = CU_ATTR_COOPERATIVE,
    [GGR_ATTR_CAN_MAP_HOST] = CU_ATTR_CAN_MAP_HOST, [GGR_ATTR_MANAGED] = CU_ATTR_MANAGED};
  return cu.cuDeviceGetAttribute(value, map[attr], ord);
}

static int w_device_arch(char *buf, size_t len, int ord) {
  int major = 0, minor = 0, r;
  if ((r = cu.cuDeviceGetAttribute(&major, CU_ATTR_CC_MAJOR, ord))) return r;
  if ((r = cu.cuDeviceGetAttribute(&minor, CU_ATTR_CC_MINOR, ord))) return r;
  snprintf(buf, len, "sm_%d%d", major, minor);
  return 0;
}

static int w_ctx_create(void **ctx, int ord) {
  int r = cu.cuDevicePrimaryCtxRetain((CUcontext *)ctx, ord);
  return r ? r : cu.cuCtxSetCurrent(*ctx);
}
static int w_ctx_destroy(void *ctx, int ord) { return cu.cuDevicePrimaryCtxRelease(ord); }

/* One split of the device's SMs, the same in every call of the process
 * (the driver's split is deterministic): group 0 of `sms` SMs (rounded
 * up to the device's granularity) and the remainder.  So a context on
 * the group and one on the remainder never share an SM.  The green
 * context retains the primary context itself; streams created while the
 * context converted from it is current run on its SMs only. */
static int w_ctx_create_partition(void **ctx, void **green, int *got, int ord, int sms,
                                  int rest) {
  CUdevResource dev, group, left;
  memset(&dev, 0, sizeof dev), memset(&group, 0, sizeof group), memset(&left, 0, sizeof left);
  unsigned ngroups = 1;
  CUdevResourceDesc desc = NULL;
  *green = NULL;
  int r = cu.cuDeviceGetDevResource(ord, &dev, CU_DEV_RESOURCE_TYPE_SM);
  if (!r) r = cu.cuDevSmResourceSplitByCount(&group, &ngroups, &dev, &left, 0, (unsigned)sms);
  CUdevResource *use = rest ? &left : &group;
  if (!r && (ngroups < 1 || use->type != CU_DEV_RESOURCE_TYPE_SM || use->u.sm.count == 0))
    r = CU_ERROR_INVALID_VALUE; /* nothing left on that side of the split */
  if (!r) r = cu.cuDevResourceGenerateDesc(&desc, use, 1);
  if (!r) r = cu.cuGreenCtxCreate(green, desc, ord, CU_GREEN_CTX_DEFAULT_STREAM);
  if (!r) r = cu.cuCtxFromGreenCtx(ctx, *green);
  if (!r) r = cu.cuCtxSetCurrent(*ctx);
  if (r && *green) cu.cuGreenCtxDestroy(*green), *green = NULL;
  if (!r) *got = (int)use->u.sm.count;
  return r;
}
static int w_green_destroy(void *green) { return cu.cuGreenCtxDestroy(green); }
static int w_ctx_set_current(void *ctx, int ord) { return cu.cuCtxSetCurrent(ctx); }
static int w_ctx_sync(void) { return cu.cuCtxSynchronize(); }

static int w_module_load(void **m, const void *image) { return cu.cuModuleLoadData(m, image); }
static int w_module_unload(void *m) { return cu.cuModuleUnload(m); }
/* Loaded onto the device now, not at its first launch: under lazy
 * loading (the driver's default) a function's load waits for every kernel
 * of the device (device.c), and the work of its context queued after it
 * waits too - a persistent kernel elsewhere on the device would hold it
 * until terminate. */
static int w_module_function(void **fn, void *m, const char *sym) {
  int r = cu.cuModuleGetFunction(fn, m, sym);
  return r || !cu.cuFuncLoad ? r : cu.cuFuncLoad(*fn);
}
static int w_occupancy(int *blocks, void *fn, int block, size_t smem) {
  return cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, fn, block, smem);
}

/* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: above 48 KiB a
 * function must opt in to the larger carve-out. */
#define CU_FUNC_MAX_DYNAMIC_SHARED 8
static int w_func_max_shared(void *fn, int bytes) {
  return cu.cuFuncSetAttribute(fn, CU_FUNC_MAX_DYNAMIC_SHARED, bytes);
}

static int w_launch(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                    void **params) {
  return cu.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, smem, stream, params, NULL);
}
/* Programmatic stream serialization: the driver may start this grid as
 * soon as every block of the previous kernel on the stream has issued
 * griddepcontrol.launch_dependents (or exited), instead of after that
 * kernel's end; the kernel's own griddepcontrol.wait keeps it correct.
 * Captured into a graph, the attribute becomes a programmatic edge. */
static int w_launch_pdl(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                        void **params) {
  CUlaunchAttribute attr;
  memset(&attr, 0, sizeof attr);
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmatic_stream_serialization_allowed = 1;
  CUlaunchConfig cfg = {grid, 1, 1, block, 1, 1, smem, stream, &attr, 1};
  return cu.cuLaunchKernelEx(&cfg, fn, params, NULL);
}
static int w_launch_coop(void *fn, unsigned grid, unsigned block, unsigned smem, void *stream,
                         void **params) {
  return cu.cuLaunchCooperativeKernel(fn, grid, 1, 1, block, 1, 1, smem, stream, params);
}

/* Non-blocking: our streams never serialize against the legacy default
 * stream, which would add hidden synchronization. */
static int w_stream_create(void **s) { return cu.cuStreamCreate(s, CU_STREAM_NON_BLOCKING); }
static int w_stream_destroy(void *s) { return cu.cuStreamDestroy(s); }
static int w_stream_sync(void *s) { return cu.cuStreamSynchronize(s); }
static int w_stream_query(void *s) { return cu.cuStreamQuery(s); }
static int w_event_create(void **e) { return cu.cuEventCreate(e, CU_EVENT_DEFAULT); }
static int w_event_destroy(void *e) { return cu.cuEventDestroy(e); }
static int w_event_record(void *e, void *s) { return cu.cuEventRecord(e, s); }
static int w_event_sync(void *e) { return cu.cuEventSynchronize(e); }
static int w_event_elapsed(float *ms, void *a, void *b) { return cu.cuEventElapsedTime(ms, a, b); }

static int w_mem_alloc(ggr_dptr *p, size_t n) { return cu.cuMemAlloc((CUdeviceptr *)p, n); }
static int w_mem_free(ggr_dptr p) { return cu.cuMemFree(p); }
static int w_host_alloc(void **p, size_t n, int mapped) {
  unsigned flags = CU_MEMHOSTALLOC_PORTABLE | (mapped ? CU_MEMHOSTALLOC_DEVICEMAP : 0);
  return cu.cuMemHostAlloc(p, n, flags);
}
static int w_host_free(void *p) { return cu.cuMemFreeHost(p); }
static int w_host_device_ptr(ggr_dptr *d, void *h) {
  return cu.cuMemHostGetDevicePointer((CUdeviceptr *)d, h, 0);
}
static int w_managed_alloc(ggr_dptr *p, size_t n) {
  return cu.cuMemAllocManaged((CUdeviceptr *)p, n, CU_MEM_ATTACH_GLOBAL);
}
static int w_memcpy_async(ggr_dptr d, ggr_dptr s, size_t n, void *st) {
  return cu.cuMemcpyAsync(d, s, n, st);
}
static int w_memset_async(ggr_dptr d, unsigned char v, size_t n, void *st) {
  return cu.cuMemsetD8Async(d, v, n, st);
}

static const char *w_err_name(int code) {
  const char *s = NULL;
  if (!cu.cuGetErrorName || cu.cuGetErrorName(code, &s) || !s) return "CUDA_ERROR_UNKNOWN";
  return s;
}
static const char *w_err_string(int code) {
  const char *s = NULL;
  if (!cu.cuGetErrorString || cu.cuGetErrorString(code, &s) || !s) return "unknown error";
  return s;
}

static int w_capture_begin(void *s) {
  return cu.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
}
static int w_capture_end(void *s, void **g) { return cu.cuStreamEndCapture(s, g); }
static int w_graph_instantiate(void **e, void *g) { return cu.cuGraphInstantiateWithFlags(e, g, 0); }
static int w_graph_launch(void *e, void *s) { return cu.cuGraphLaunch(e, s); }
static int w_graph_destroy(void *g) { return cu.cuGraphDestroy(g); }
static int w_graph_exec_destroy(void *e) { return cu.cuGraphExecDestroy(e); }

/* Resolve one symbol; a missing required one fails the load. */
static int resolve(void *lib, void *slot, const char *sym, int required, char *err, size_t n,
                   const char *path) {
  void *p = dlsym(lib, sym);
  memcpy(slot, &p, sizeof p);
  if (!p && required) {
    snprintf(err, n, "%s has no symbol %s (driver too old?)", path, sym);
    return -1;
  }
  return 0;
}

#define REQ(field, sym) \
  if (resolve(lib, &cu.field, sym, 1, err, errlen, path)) goto fail
#define OPT(field, sym) resolve(lib, &cu.field, sym, 0, err, errlen, path)

static int resolve_all(void *lib, const char *path, char *err, size_t errlen) {
  REQ(cuInit, "cuInit"); REQ(cuDriverGetVersion, "cuDriverGetVersion");
  REQ(cuDeviceGetCount, "cuDeviceGetCount"); REQ(cuDeviceGet, "cuDeviceGet");
  REQ(cuDeviceGetName, "cuDeviceGetName"); REQ(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  REQ(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  REQ(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  REQ(cuCtxSetCurrent, "cuCtxSetCurrent"); REQ(cuCtxSynchronize, "cuCtxSynchronize");
  REQ(cuModuleLoadData, "cuModuleLoadData"); REQ(cuModuleUnload, "cuModuleUnload");
  REQ(cuModuleGetFunction, "cuModuleGetFunction");
  OPT(cuFuncLoad, "cuFuncLoad");
  REQ(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  REQ(cuFuncSetAttribute, "cuFuncSetAttribute");
  REQ(cuLaunchKernel, "cuLaunchKernel");
  REQ(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel");
  REQ(cuStreamCreate, "cuStreamCreate"); REQ(cuStreamDestroy, "cuStreamDestroy_v2");
  REQ(cuStreamSynchronize, "cuStreamSynchronize"); REQ(cuStreamQuery, "cuStreamQuery");
  REQ(cuEventCreate, "cuEventCreate"); REQ(cuEventDestroy, "cuEventDestroy_v2");
  REQ(cuEventRecord, "cuEventRecord"); REQ(cuEventSynchronize, "cuEventSynchronize");
  /* CUDA 13 renamed the ABI of cuEventElapsedTime; older drivers have only v1. */
  if (!OPT(cuEventElapsedTime, "cuEventElapsedTime_v2") && !cu.cuEventElapsedTime)
    REQ(cuEventElapsedTime, "cuEventElapsedTime");
  REQ(cuMemAlloc, "cuMemAlloc_v2"); REQ(cuMemFree, "cuMemFree_v2");
  REQ(cuMemHostAlloc, "cuMemHostAlloc"); REQ(cuMemFreeHost, "cuMemFreeHost");
  REQ(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
  REQ(cuMemAllocManaged, "cuMemAllocManaged");
  REQ(cuMemcpyAsync, "cuMemcpyAsync");
  REQ(cuMemsetD8Async, "cuMemsetD8Async");
  REQ(cuGetErrorName, "cuGetErrorName"); REQ(cuGetErrorString, "cuGetErrorString");
  OPT(cuLaunchKernelEx, "cuLaunchKernelEx");
  OPT(cuStreamBeginCapture, "cuStreamBeginCapture_v2");
  OPT(cuStreamEndCapture, "cuStreamEndCapture");
  OPT(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
  OPT(cuGraphLaunch, "cuGraphLaunch"); OPT(cuGraphDestroy, "cuGraphDestroy");
  OPT(cuGraphExecDestroy, "cuGraphExecDestroy");
  OPT(cuDeviceGetDevResource, "cuDeviceGetDevResource");
  OPT(cuDevSmResourceSplitByCount, "cuDevSmResourceSplitByCount");
  OPT(cuDevResourceGenerateDesc, "cuDevResourceGenerateDesc");
  OPT(cuGreenCtxCreate, "cuGreenCtxCreate"); OPT(cuGreenCtxDestroy, "cuGreenCtxDestroy");
  OPT(cuCtxFromGreenCtx, "cuCtxFromGreenCtx");
  return 0;
fail:
  return -1;
}

static void fill(ggr_backend *be) {
  be->init = w_init; be->driver_version = w_driver_version; be->device_count = w_device_count;
  be->device_name = w_device_name; be->device_attr = w_device_attr;
  be->device_arch = w_device_arch;
  be->ctx_create = w_ctx_create; be->ctx_destroy = w_ctx_destroy;
  if (cu.cuDeviceGetDevResource && cu.cuDevSmResourceSplitByCount &&
      cu.cuDevResourceGenerateDesc && cu.cuGreenCtxCreate && cu.cuGreenCtxDestroy &&
      cu.cuCtxFromGreenCtx) {
    be->ctx_create_partition = w_ctx_create_partition;
    be->green_destroy = w_green_destroy;
  }
  be->ctx_set_current = w_ctx_set_current; be->ctx_sync = w_ctx_sync;
  be->module_load = w_module_load; be->module_unload = w_module_unload;
  be->module_function = w_module_function; be->occupancy = w_occupancy; be->func_max_shared = w_func_max_shared;
  be->launch = w_launch; be->launch_cooperative = w_launch_coop;
  be->launch_pdl = cu.cuLaunchKernelEx ? w_launch_pdl : NULL;
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
  if (cu.cuStreamBeginCapture && cu.cuStreamEndCapture && cu.cuGraphInstantiateWithFlags &&
      cu.cuGraphLaunch && cu.cuGraphDestroy && cu.cuGraphExecDestroy) {
    be->capture_begin = w_capture_begin; be->capture_end = w_capture_end;
    be->graph_instantiate = w_graph_instantiate; be->graph_launch = w_graph_launch;
    be->graph_destroy = w_graph_destroy; be->graph_exec_destroy = w_graph_exec_destroy;
  }
}

gg_status ggr_cuda_load(ggr_backend **out, char *err, size_t errlen) {
  const char *env = getenv("GG_CUDA_LIBRARY");
  const char *path = env && *env ? env : "libcuda.so.1";
  *out = NULL;
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(err, errlen, "CUDA driver library %s not found (%s); install the NVIDIA driver "
             "or set GG_CUDA_LIBRARY", path, dlerror());
    return GG_ERR_NO_LIBRARY;
  }
  pthread_mutex_lock(&cu_lock);
  int bad = !cu_resolved && resolve_all(lib, path, err, errlen);
  if (!bad) cu_resolved = 1;
  pthread_mutex_unlock(&cu_lock);
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
  be->kind = GG_BACKEND_CUDA;
  be->name = "CUDA";
  be->lib_path = env && *env ? env : "libcuda.so.1";
  be->lib = lib;
  fill(be);
  *out = be;
  return GG_OK;
}
