/*
 * link.c - relocatable device code: NVRTC -rdc=true + nvJitLink + a
 * static library of device code: the device runtime (libcudadevrt.a) for
 * gg_compile_rdc and gg_module_load_rdc (module_rdc.c), NVSHMEM's
 * libnvshmem_device.a for modules whose kernels carry GG_FEAT_NVSHMEM
 * (features.c, nvshmem.c).
 *
 * Why a second path next to module.c: a kernel that launches kernels
 * (dynamic parallelism) calls into the device runtime, which lives in a
 * static archive of relocatable device code.  NVRTC alone cannot resolve
 * those calls; it emits a relocatable cubin, and nvJitLink links it with
 * libcudadevrt.a into a cubin the driver can load.
 *
 * nvJitLink is opened per link (like gg_compile opens NVRTC): no global
 * state, and the library stays mapped once loaded (RTLD_NODELETE, as
 * LLVM-based libraries do not unload cleanly).  HIP has no equivalent
 * here: GG_ERR_UNSUPPORTED.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "link.h"
#include "toolkit.h"

enum { JL_INPUT_CUBIN = 1, JL_INPUT_LIBRARY = 6 }; /* nvJitLinkInputType */

typedef struct jitlink {
  void *lib;
  char path[600];
  int (*create)(void **h, uint32_t nopts, const char **opts);
  int (*destroy)(void **h);
  int (*add_data)(void *h, int type, const void *data, size_t size, const char *name);
  int (*add_file)(void *h, int type, const char *file);
  int (*complete)(void *h);
  int (*cubin_size)(void *h, size_t *n);
  int (*cubin)(void *h, void *buf);
  int (*err_log_size)(void *h, size_t *n);
  int (*err_log)(void *h, char *buf);
  int (*info_log_size)(void *h, size_t *n);
  int (*info_log)(void *h, char *buf);
} jitlink;

static int sym(void *lib, void *slot, const char *name) {
  void *p = dlsym(lib, name);
  memcpy(slot, &p, sizeof p);
  return p ? 0 : -1;
}

/* Open nvJitLink from the same toolkit as NVRTC (the versions must match:
 * nvJitLink refuses input from a newer NVRTC). */
static int jitlink_open(jitlink *j, char *err, size_t errlen) {
  memset(j, 0, sizeof *j);
  static const char *const sonames[] = {"libnvJitLink.so.13", "libnvJitLink.so.12",
                                        "libnvJitLink.so", NULL};
  char tried[400];
  j->lib = ggr_toolkit_dlopen(sonames, j->path, sizeof j->path, tried, sizeof tried);
  if (!j->lib) {
    snprintf(err, errlen, "nvJitLink not found (tried %s); device-side launch and NVSHMEM "
             "need it: install the CUDA toolkit's nvJitLink or set CUDA_HOME", tried);
    return -1;
  }
  int bad = 0;
  bad |= sym(j->lib, &j->create, "nvJitLinkCreate");
  bad |= sym(j->lib, &j->destroy, "nvJitLinkDestroy");
  bad |= sym(j->lib, &j->add_data, "nvJitLinkAddData");
  bad |= sym(j->lib, &j->add_file, "nvJitLinkAddFile");
  bad |= sym(j->lib, &j->complete, "nvJitLinkComplete");
  bad |= sym(j->lib, &j->cubin_size, "nvJitLinkGetLinkedCubinSize");
  bad |= sym(j->lib, &j->cubin, "nvJitLinkGetLinkedCubin");
  bad |= sym(j->lib, &j->err_log_size, "nvJitLinkGetErrorLogSize");
  bad |= sym(j->lib, &j->err_log, "nvJitLinkGetErrorLog");
  bad |= sym(j->lib, &j->info_log_size, "nvJitLinkGetInfoLogSize");
  bad |= sym(j->lib, &j->info_log, "nvJitLinkGetInfoLog");
  if (bad) {
    snprintf(err, errlen, "%s lacks the nvJitLink entry points", j->path);
    return -1;
  }
  return 0;
}

void ggr_log_append(gg_compile_result *res, const char *what, const char *text) {
  if (!text || !*text) return;
  size_t old = res->log ? strlen(res->log) : 0;
  size_t n = old + strlen(what) + strlen(text) + 4;
  char *log = realloc(res->log, n);
  if (!log) return;
  snprintf(log + old, n - old, "%s%s:\n%s", old ? "\n" : "", what, text);
  res->log = log;
}

static void take_jl_log(jitlink *j, void *h, int error, gg_compile_result *res) {
  size_t n = 0;
  int (*size_fn)(void *, size_t *) = error ? j->err_log_size : j->info_log_size;
  int (*log_fn)(void *, char *) = error ? j->err_log : j->info_log;
  if (size_fn(h, &n) || n == 0) return;
  char *buf = malloc(n + 1);
  if (!buf) return;
  if (!log_fn(h, buf)) {
    buf[n] = 0;
    ggr_log_append(res, error ? "nvJitLink error" : "nvJitLink", buf);
  }
  free(buf);
}

gg_status ggr_link_library(const char *arch, const void *extra, size_t extra_size,
                           const char *library, const char *why, gg_compile_result *res) {
  char err[1600], archopt[64];
  jitlink j;
  if (jitlink_open(&j, err, sizeof err)) {
    ggr_log_append(res, "link", err);
    return GG_ERR_NO_LIBRARY;
  }
  struct stat sb;
  if (stat(library, &sb) != 0) {
    snprintf(err, sizeof err, "%s not found: %s", library, why);
    ggr_log_append(res, "link", err);
    return GG_ERR_NO_LIBRARY;
  }
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  const char *opts[] = {archopt};
  void *h = NULL;
  int r = j.create(&h, 1, opts);
  if (r) {
    snprintf(err, sizeof err, "nvJitLinkCreate(%s) failed (%d)", archopt, r);
    ggr_log_append(res, "link", err);
    return GG_ERR_COMPILE;
  }
  const char *step = "nvJitLinkAddData(relocatable cubin)";
  r = j.add_data(h, JL_INPUT_CUBIN, res->binary, res->binary_size, "gpugen_rdc.cubin");
  if (!r && extra) {
    step = "nvJitLinkAddData(second relocatable cubin)";
    r = j.add_data(h, JL_INPUT_CUBIN, extra, extra_size, "gpugen_rdc_extra.cubin");
  }
  if (!r) { step = "nvJitLinkAddFile(library)"; r = j.add_file(h, JL_INPUT_LIBRARY, library); }
  if (!r) { step = "nvJitLinkComplete"; r = j.complete(h); }
  size_t n = 0;
  void *cubin = NULL;
  if (!r) { step = "nvJitLinkGetLinkedCubinSize"; r = j.cubin_size(h, &n); }
  if (!r && !(cubin = malloc(n ? n : 1))) {
    j.destroy(&h);
    return GG_ERR_OUT_OF_MEMORY;
  }
  if (!r) { step = "nvJitLinkGetLinkedCubin"; r = j.cubin(h, cubin); }
  take_jl_log(&j, h, r != 0, res);
  j.destroy(&h);
  if (r) {
    free(cubin);
    snprintf(err, sizeof err, "%s failed (nvJitLinkResult %d) linking with %s", step, r, library);
    ggr_log_append(res, "link", err);
    return GG_ERR_COMPILE;
  }
  free(res->binary);
  res->binary = cubin;
  res->binary_size = n;
  return GG_OK;
}

/* Link the relocatable cubin in res->binary with libcudadevrt.a. */
static gg_status link_devrt(const char *arch, gg_compile_result *res) {
  char devrt[700];
  snprintf(devrt, sizeof devrt, "%s/lib64/libcudadevrt.a", ggr_cuda_home());
  return ggr_link_library(arch, NULL, 0, devrt, "device-side launch needs the CUDA device runtime",
                          res);
}

gg_status ggr_compile_rdc_with(ggr_compiler *c, const char *arch, const char *name,
                               const char *source, const char *const *options,
                               gg_compile_result *res) {
  memset(res, 0, sizeof *res);
  if (c->kind != GG_BACKEND_CUDA) {
    res->log = strdup("device-side launch (relocatable device code) is CUDA only: hiprtc 5.2 "
                      "has no device runtime to link");
    return res->status = GG_ERR_UNSUPPORTED;
  }
  if (strncmp(arch, "sm_", 3) != 0) {
    size_t n = strlen(arch) + 100;
    if ((res->log = malloc(n)))
      snprintf(res->log, n, "relocatable device code needs a real arch (sm_XX), not '%s'", arch);
    return res->status = GG_ERR_UNSUPPORTED;
  }
  int nuser = 0;
  while (options && options[nuser]) nuser++;
  const char **opts = malloc((size_t)(nuser + 2) * sizeof *opts);
  if (!opts) return res->status = GG_ERR_OUT_OF_MEMORY;
  for (int i = 0; i < nuser; i++) opts[i] = options[i];
  opts[nuser] = "-rdc=true";
  opts[nuser + 1] = NULL;
  gg_status st = ggr_compile_with(c, arch, name, source, opts, res);
  free(opts);
  if (!st) st = link_devrt(arch, res);
  return res->status = st;
}

gg_status gg_compile_rdc(const char *arch, const char *name, const char *source,
                         const char *const *options, gg_compile_result *res) {
  if (!res) return GGR_NULL_ARG();
  memset(res, 0, sizeof *res);
  if (!arch || !source) {
    res->log = strdup("gg_compile_rdc: arch or source is NULL");
    return ggr_compile_failed(res, GG_ERR_INVALID);
  }
  if (!strncmp(arch, "gfx", 3)) {
    res->log = strdup("device-side launch (relocatable device code) is CUDA only");
    return ggr_compile_failed(res, GG_ERR_UNSUPPORTED);
  }
  char err[1200];
  ggr_compiler *c;
  gg_status st = ggr_compiler_load(GG_BACKEND_CUDA, &c, err, sizeof err);
  if (st) {
    res->log = strdup(err);
    return ggr_compile_failed(res, st);
  }
  st = ggr_compile_rdc_with(c, arch, name, source, options, res);
  ggr_compiler_unload(c);
  return st ? ggr_compile_failed(res, st) : GG_OK;
}
