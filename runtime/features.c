/*
 * features.c - what a module's kernels' features add to its compile
 * (GG_FEAT_MATHDX, GG_FEAT_NVSHMEM), gg_compile / gg_compile_features, and
 * whether each feature's library is here (gg_mathdx_available,
 * gg_nvshmem_available).
 *
 * It sits above the files it uses, so calls go one way: compile.c
 * compiles (the module, and NVSHMEM's bridge, whose source nvshmem.c
 * holds), nvshmem.c links the bridge and NVSHMEM's device library through
 * link.c, and none of them calls back here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "internal.h"
#include "link.h"
#include "nvshmem.h"
#include "toolkit.h"

/* A module that calls NVSHMEM: compile nvshmem.c's bridge for the same
 * arch, then link the module, the bridge and the device library. */
static gg_status nvshmem_link(ggr_compiler *c, const char *arch, const char *include,
                              const char *library, gg_compile_result *res) {
  const char *opts[] = {"-std=c++17", "-rdc=true", include, NULL};
  gg_compile_result bridge;
  gg_status st = ggr_compile_with(c, arch, "gg_nvshmem_bridge.cu", ggr_nvshmem_bridge_source(),
                                  opts, &bridge);
  if (st)
    ggr_log_append(res, "NVSHMEM bridge (runtime/nvshmem.c)", bridge.log ? bridge.log : "");
  else
    st = ggr_nvshmem_link(arch, &bridge, library, res);
  gg_compile_result_free(&bridge);
  return st;
}

/* What the kernels' features add to the descriptor's options, only for
 * modules that need it: MathDx's two include folders (GG_FEAT_MATHDX: its
 * headers take seconds to compile), NVSHMEM's include folder and
 * -rdc=true, then the link with libnvshmem_device.a (GG_FEAT_NVSHMEM:
 * its device functions live in that archive, and NVRTC alone leaves them
 * unresolved).  A module that needs neither must not fail where they are
 * missing. */
gg_status ggr_compile_features(ggr_compiler *c, const char *arch, const char *name,
                               const char *source, const char *const *options, unsigned features,
                               gg_compile_result *res) {
  unsigned mathdx = features & GG_FEAT_MATHDX, nvshmem = features & GG_FEAT_NVSHMEM;
  if (!mathdx && !nvshmem) return ggr_compile_with(c, arch, name, source, options, res);
  memset(res, 0, sizeof *res);
  if (c->kind != GG_BACKEND_CUDA) {
    char words[256];
    int k = ggr_compiled_features(features, words, sizeof words);
    ggr_set_log(res, "this module uses %s, which %s CUDA only", words, k > 1 ? "are" : "is");
    return res->status = GG_ERR_UNSUPPORTED;
  }
  char dir[1024], why[1400], inc[3][1100], lib[1200];
  const char *extra[4];
  int nextra = 0;
  if (mathdx) {
    if (ggr_mathdx_dir(dir, sizeof dir, why, sizeof why)) {
      ggr_set_log(res, "%s%s", why, "");
      return res->status = GG_ERR_NO_LIBRARY;
    }
    snprintf(inc[0], sizeof inc[0], "-I%s/include", dir);
    snprintf(inc[1], sizeof inc[1], "-I%s/external/cutlass/include", dir);
    extra[nextra++] = inc[0];
    extra[nextra++] = inc[1];
  }
  if (nvshmem) {
    if (strncmp(arch, "sm_", 3) != 0) {
      ggr_set_log(res, "NVSHMEM kernels are linked with libnvshmem_device.a, which needs a real arch "
              "(sm_XX), not '%s'%s", arch, "");
      return res->status = GG_ERR_UNSUPPORTED;
    }
    if (ggr_nvshmem_dir(dir, sizeof dir, why, sizeof why)) {
      ggr_set_log(res, "%s%s", why, "");
      return res->status = GG_ERR_NO_LIBRARY;
    }
    snprintf(inc[2], sizeof inc[2], "-I%s/include", dir);
    snprintf(lib, sizeof lib, "%s/lib/libnvshmem_device.a", dir);
    extra[nextra++] = inc[2];
    extra[nextra++] = "-rdc=true";
  }
  int nuser = 0;
  while (options && options[nuser]) nuser++;
  const char **opts = malloc((size_t)(nuser + nextra + 1) * sizeof *opts);
  if (!opts) return res->status = GG_ERR_OUT_OF_MEMORY;
  for (int i = 0; i < nuser; i++) opts[i] = options[i];
  for (int i = 0; i < nextra; i++) opts[nuser + i] = extra[i];
  opts[nuser + nextra] = NULL;
  gg_status st = ggr_compile_with(c, arch, name, source, opts, res);
  free(opts);
  if (!st && nvshmem) st = nvshmem_link(c, arch, inc[2], lib, res);
  return res->status = st;
}

gg_status gg_compile(gg_backend backend, const char *arch, const char *name,
                     const char *source, const char *const *options, gg_compile_result *res) {
  return gg_compile_features(backend, arch, name, source, options, 0, res);
}

gg_status gg_compile_features(gg_backend backend, const char *arch, const char *name,
                              const char *source, const char *const *options, unsigned features,
                              gg_compile_result *res) {
  if (!res) return GGR_NULL_ARG();
  memset(res, 0, sizeof *res);
  if (!arch || !source) {
    ggr_set_log(res, "gg_compile: %s%s", !arch ? "arch " : "", !source ? "source is NULL" : "is NULL");
    return ggr_compile_failed(res, GG_ERR_INVALID);
  }
  if (backend == GG_BACKEND_AUTO) backend = !strncmp(arch, "gfx", 3) ? GG_BACKEND_HIP : GG_BACKEND_CUDA;
  char err[1200];
  ggr_compiler *c;
  gg_status st = ggr_compiler_load(backend, &c, err, sizeof err);
  if (st) {
    ggr_set_log(res, "%s%s", err, "");
    return ggr_compile_failed(res, st);
  }
  st = ggr_compile_features(c, arch, name, source, options, features, res);
  ggr_compiler_unload(c);
  return st ? ggr_compile_failed(res, st) : GG_OK;
}

int gg_mathdx_available(char *why, size_t n) {
  char dir[1024], buf[1400];
  int ok = ggr_mathdx_dir(dir, sizeof dir, buf, sizeof buf) == 0;
  if (why && n) snprintf(why, n, "%s", ok ? "" : buf);
  return ok;
}

int gg_nvshmem_available(char *why, size_t n) {
  char dir[1024], buf[1400];
  int ok = ggr_nvshmem_dir(dir, sizeof dir, buf, sizeof buf) == 0;
  if (why && n) snprintf(why, n, "%s", ok ? "" : buf);
  return ok;
}
