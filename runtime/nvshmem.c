/*
 * nvshmem.c - NVSHMEM's host library, for modules whose kernels carry
 * GG_FEAT_NVSHMEM (docs/multi-gpu.md).
 *
 * Such a module is compiled and linked with NVSHMEM's device library
 * (features.c, link.c).  Its device code reads NVSHMEM's state (this PE's
 * number, the symmetric heap's peers) from a __constant__ the linked
 * module holds, which the host library fills when it is told of the
 * module: nvshmemx_cumodule_init after the driver loads it,
 * nvshmemx_cumodule_finalize before it is unloaded.  A kernel of a module
 * left uninitialized would read zeros and put to the wrong addresses.
 *
 * libgg links nothing of NVSHMEM at build time.  The host library is
 * opened on the first such module: the one the process has already loaded
 * when it has one (an application that initialized NVSHMEM itself: a
 * second copy would be a second, uninitialized NVSHMEM), else
 * lib/libnvshmem_host.so.3 of NVSHMEM's folder (toolkit.c).  It stays
 * loaded for the life of the process, as NVSHMEM's state does.
 *
 * The link (ggr_nvshmem_link) has one wrinkle.  NVRTC has no C library:
 * its uint64_t is unsigned long long (CCCL's cuda/std/cstdint, and the
 * CUDA headers', under NVRTC), while libnvshmem_device.a was compiled by
 * nvcc against glibc, where uint64_t is unsigned long.  A device function
 * of the archive that takes a uint64_t is therefore called by one C++
 * name and defined under another.  In NVSHMEM 3.8.0 exactly one is both
 * out of line and reachable from the device API:
 * nvshmemi_transfer_put_signal_dispatch<SCOPE> (every put-with-signal to a
 * peer that is not reached by loads and stores: the proxy, InfiniBand).
 * The bridge below, compiled by NVRTC beside the module and linked with
 * it, defines the name NVRTC's code calls and forwards to the archive's.
 * A newer NVSHMEM that changes this fails the link by name (duplicate or
 * undefined symbol); tests/nvshmem/test_nvshmem_link.c then says so.
 *
 * NVSHMEM must be initialized in the process before such a module loads
 * (one process per GPU, bootstrapped by a unique id: docs/multi-gpu.md);
 * the load says so when it is not, rather than letting
 * nvshmemx_cumodule_init fail with a bare code.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "link.h"
#include "nvshmem.h"
#include "toolkit.h"

/* nvshmemx_init_status_t (include/device_host_transport/nvshmem_constants.h):
 * this value and above mean nvshmem_init / nvshmemx_init_attr has run. */
enum { NVSHMEM_STATUS_IS_INITIALIZED = 2 };

static const char soname[] = "libnvshmem_host.so.3";

static struct {
  pthread_mutex_t lock;
  void *lib;
  char path[1100];
  int (*init_status)(void);
  int (*module_init)(void *cumodule);
  int (*module_finalize)(void *cumodule);
  int (*get_uniqueid)(void *uid);
  int (*set_uid_args)(int rank, int nranks, const void *uid, void *attr);
  int (*init_attr)(unsigned flags, void *attr);
  void (*finalize)(void);
  void *(*malloc)(size_t bytes);
  void (*free)(void *p);
  void (*barrier_all)(void);
} host = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* NVSHMEM's versioned start-up structures (device_host/nvshmem_types.h,
 * bootstrap_device_host/nvshmem_uniqueid.h; C++ headers, so restated
 * here).  NVSHMEM keeps them ABI-stable by size and version word, which
 * the static assertions and the version values below pin. */
typedef struct {
  int version;
  char internal[124];
} nv_uid;
typedef struct {
  int version;
  nv_uid *id;
  int myrank, nranks;
} nv_uid_args;
typedef struct {
  int version;
  nv_uid_args uid_args;
  int cuda_device_id;
  char content[92];
} nv_init_args;
typedef struct {
  int version;
  void *mpi_comm;
  nv_init_args args;
} nv_init_attr;
_Static_assert(sizeof(nv_uid) == 128 && sizeof(nv_uid_args) == 24, "NVSHMEM uid ABI");
_Static_assert(sizeof(nv_init_args) == 128 && sizeof(nv_init_attr) == 144, "NVSHMEM init ABI");
enum { NV_INIT_WITH_UNIQUEID = 1 << 3 }; /* nvshmemx_api.h: enum flags */

static int sym(void *lib, void *slot, const char *name) {
  void *p = dlsym(lib, name);
  memcpy(slot, &p, sizeof p);
  return p ? 0 : -1;
}

/* Open the host library once; GG_OK or a detail saying which file and why. */
static gg_status open_host(void) {
  pthread_mutex_lock(&host.lock);
  gg_status st = GG_OK;
  if (host.lib) goto out;
  void *lib = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
  if (lib) {
    snprintf(host.path, sizeof host.path, "%s (already loaded by the application)", soname);
  } else {
    char dir[1024], why[1400];
    if (ggr_nvshmem_dir(dir, sizeof dir, why, sizeof why)) {
      st = ggr_set_error(GG_ERR_NO_LIBRARY, "%s", why);
      goto out;
    }
    snprintf(host.path, sizeof host.path, "%s/lib/%s", dir, soname);
    /* GLOBAL: the bootstrap plugins NVSHMEM opens resolve into it */
    lib = dlopen(host.path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
    if (!lib) {
      st = ggr_set_error(GG_ERR_NO_LIBRARY, "NVSHMEM's host library %s could not be opened: %s",
                         host.path, dlerror());
      goto out;
    }
  }
  static const struct {
    size_t off;
    const char *name;
  } syms[] = {
      {offsetof(__typeof__(host), init_status), "nvshmemx_init_status"},
      {offsetof(__typeof__(host), module_init), "nvshmemx_cumodule_init"},
      {offsetof(__typeof__(host), module_finalize), "nvshmemx_cumodule_finalize"},
      {offsetof(__typeof__(host), get_uniqueid), "nvshmemx_get_uniqueid"},
      {offsetof(__typeof__(host), set_uid_args), "nvshmemx_set_attr_uniqueid_args"},
      {offsetof(__typeof__(host), init_attr), "nvshmemx_hostlib_init_attr"},
      {offsetof(__typeof__(host), finalize), "nvshmemx_hostlib_finalize"},
      {offsetof(__typeof__(host), malloc), "nvshmem_malloc"},
      {offsetof(__typeof__(host), free), "nvshmem_free"},
      {offsetof(__typeof__(host), barrier_all), "nvshmem_barrier_all"},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
    if (sym(lib, (char *)&host + syms[i].off, syms[i].name)) {
      st = ggr_set_error(GG_ERR_NO_LIBRARY, "%s lacks %s (NVSHMEM 3.x has it)", host.path,
                         syms[i].name);
      goto out;
    }
  host.lib = lib;
out:
  pthread_mutex_unlock(&host.lock);
  return st;
}

/* The bridge: for each thread group (thread, warp, warpgroup, block), the
 * specialization NVRTC's code calls (signal: unsigned long long) forwards
 * to the archive's (signal: unsigned long; an overload, not a cast of the
 * name).  Only the transfer header is included: seconds less than the
 * whole device API. */
static const char bridge_src[] =
    "#include <non_abi/device/pt-to-pt/nvshmemi_transfer_api.cuh>\n"
    "template <threadgroup_t SCOPE> __device__ void nvshmemi_transfer_put_signal_dispatch(\n"
    "    void *, void *, size_t, void *, unsigned long, nvshmemi_amo_t, int, bool,\n"
    "    nvshmemx_qp_handle_t);\n"
    "#define GG_BRIDGE(SCOPE)                                                             \\\n"
    "  template <> __device__ void nvshmemi_transfer_put_signal_dispatch<SCOPE>(          \\\n"
    "      void *rptr, void *lptr, size_t bytes, void *sig, unsigned long long signal,      \\\n"
    "      nvshmemi_amo_t op, int pe, bool nbi, nvshmemx_qp_handle_t qp) {                \\\n"
    "    nvshmemi_transfer_put_signal_dispatch<SCOPE>(rptr, lptr, bytes, sig,              \\\n"
    "                                                 (unsigned long)signal, op, pe, nbi, qp); \\\n"
    "  }\n"
    "GG_BRIDGE(NVSHMEMI_THREADGROUP_THREAD)\n"
    "GG_BRIDGE(NVSHMEMI_THREADGROUP_WARP)\n"
    "GG_BRIDGE(NVSHMEMI_THREADGROUP_WARPGROUP)\n"
    "GG_BRIDGE(NVSHMEMI_THREADGROUP_BLOCK)\n";

const char *ggr_nvshmem_bridge_source(void) { return bridge_src; }

gg_status ggr_nvshmem_link(const char *arch, const gg_compile_result *bridge,
                           const char *library, gg_compile_result *res) {
  static const char why[] = "NVSHMEM kernels link with NVSHMEM's device library: reinstall it "
                            "with scripts/fetch-nvshmem.py .deps/nvshmem";
  return ggr_link_library(arch, bridge->binary, bridge->binary_size, library, why, res);
}

gg_status ggr_nvshmem_module_init(gg_context *ctx, void *native, const char *name) {
  if (ctx->be->kind != GG_BACKEND_CUDA)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "module %s calls NVSHMEM, which is CUDA only", name);
  gg_status st = open_host();
  if (st) return st;
  int status = host.init_status();
  if (status < NVSHMEM_STATUS_IS_INITIALIZED)
    return ggr_set_error(GG_ERR_STATE, "module %s calls NVSHMEM, which is not initialized in this "
                         "process (nvshmemx_init_status %d, host library %s): initialize NVSHMEM "
                         "on this context's device before loading it (docs/multi-gpu.md)",
                         name, status, host.path);
  int r = host.module_init(native);
  if (r)
    return ggr_set_error(GG_ERR_BACKEND, "module %s: nvshmemx_cumodule_init failed (%d, host "
                         "library %s): is the host library the version the module was linked "
                         "with?", name, r, host.path);
  return GG_OK;
}

void ggr_nvshmem_module_finalize(void *native) {
  if (host.lib && native) host.module_finalize(native);
}

/* ---- start-up and the symmetric heap, for team.c ---- */

gg_status ggr_nvshmem_uid(void *uid) {
  gg_status st = open_host();
  if (st) return st;
  nv_uid *u = uid;
  memset(u, 0, sizeof *u);
  u->version = (1 << 16) + (int)sizeof(nv_uid); /* NVSHMEMX_UNIQUEID_INITIALIZER */
  int r = host.get_uniqueid(u);
  return r ? ggr_set_error(GG_ERR_BACKEND, "nvshmemx_get_uniqueid failed (%d)", r) : GG_OK;
}

gg_status ggr_nvshmem_host(int *started) {
  gg_status st = open_host();
  *started = !st && host.init_status() >= NVSHMEM_STATUS_IS_INITIALIZED;
  return st;
}

/* Blocks until every rank has arrived (NVSHMEM's bootstrap): team.c runs
 * it on a thread of its own and bounds the wait.  0 or NVSHMEM's code. */
int ggr_nvshmem_init(int rank, int nranks, const void *uid, int device) {
  nv_init_attr attr;
  memset(&attr, 0, sizeof attr);
  /* NVSHMEMX_INIT_ATTR_INITIALIZER: version 2 of attr and args, 1 of uid_args */
  attr.version = (2 << 16) + (int)sizeof(nv_init_attr);
  attr.args.version = (2 << 16) + (int)sizeof(nv_init_args);
  attr.args.uid_args.version = (1 << 16) + (int)sizeof(nv_uid_args);
  attr.args.uid_args.myrank = attr.args.uid_args.nranks = -1;
  attr.args.cuda_device_id = device;
  int r = host.set_uid_args(rank, nranks, uid, &attr);
  return r ? r : host.init_attr(NV_INIT_WITH_UNIQUEID, &attr);
}

void ggr_nvshmem_finalize(void) { host.finalize(); }
void *ggr_nvshmem_malloc(size_t bytes) { return host.malloc(bytes); }
void ggr_nvshmem_free(void *p) { host.free(p); }
void ggr_nvshmem_barrier(void) { host.barrier_all(); }
