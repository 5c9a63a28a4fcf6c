/*
 * compile.c - NVRTC and hiprtc behind ggr_compiler (gg_compile and the
 * features a module's compile adds: features.c).
 *
 * Both compilers are loaded with dlopen, from where toolkit.c says: NVRTC
 * from the CUDA toolkit, hiprtc from inside libamdhip64.
 *
 * CUDA targets: "sm_90" gives a cubin, "compute_90" PTX (which the driver
 * JIT-compiles for a device newer than this NVRTC knows).
 * HIP targets: "gfx90a" gives a code object.  hiprtc 5.2 aborts the whole
 * process on an arch it does not know, so every arch is checked against
 * the list below first.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "internal.h"
#include "toolkit.h"

/* Archs hiprtc 5.2 compiles for: each was compiled in a forked child with
 * Debian's libamdhip64 5.2 (2026-11); gfx940 and gfx1100 abort it. */
static const char *const hip_archs[] = {
  "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705", "gfx801", "gfx802", "gfx803",
  "gfx805", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a",
  "gfx90c", "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032",
  "gfx1033", "gfx1034", "gfx1035", "gfx1036", NULL};

static int resolve(void *lib, void *slot, const char *sym) {
  void *p = dlsym(lib, sym);
  memcpy(slot, &p, sizeof p);
  return p ? 0 : -1;
}

/* ---- NVRTC ---- */

static int nvrtc_resolve(ggr_compiler *c) {
  void *l = c->lib;
  int bad = 0;
  bad |= resolve(l, &c->create, "nvrtcCreateProgram");
  bad |= resolve(l, &c->compile, "nvrtcCompileProgram");
  bad |= resolve(l, &c->log_size, "nvrtcGetProgramLogSize");
  bad |= resolve(l, &c->log, "nvrtcGetProgramLog");
  bad |= resolve(l, &c->code_size, "nvrtcGetCUBINSize");
  bad |= resolve(l, &c->code, "nvrtcGetCUBIN");
  bad |= resolve(l, &c->ptx_size, "nvrtcGetPTXSize");
  bad |= resolve(l, &c->ptx, "nvrtcGetPTX");
  bad |= resolve(l, &c->destroy, "nvrtcDestroyProgram");
  bad |= resolve(l, &c->err_string, "nvrtcGetErrorString");
  resolve(l, &c->num_archs, "nvrtcGetNumSupportedArchs");
  resolve(l, &c->archs, "nvrtcGetSupportedArchs");
  int (*version)(int *, int *) = NULL;
  bad |= resolve(l, &version, "nvrtcVersion");
  if (!bad) version(&c->version_major, &c->version_minor);
  return bad ? -1 : 0;
}

/* NVRTC from the CUDA toolkit (toolkit.c decides which).  Its builtins
 * library is preloaded by full path from the same folder, since NVRTC
 * opens it by bare name (see toolkit.c); when that file is missing the
 * first compile says so, and c->builtins_note says where it was looked for. */
static void *nvrtc_open(ggr_compiler *c, char *err, size_t errlen) {
  char tried[1024];
  void *lib = ggr_toolkit_dlopen(ggr_nvrtc_sonames, c->lib_path, sizeof c->lib_path, tried, sizeof tried);
  if (!lib) {
    snprintf(err, errlen, "NVRTC not found (tried %s); install the CUDA toolkit or set CUDA_HOME",
             tried);
    return NULL;
  }
  const char *home = ggr_cuda_home();
  snprintf(c->include_opts[0], sizeof c->include_opts[0], "-I%s/include", home);
  snprintf(c->include_opts[1], sizeof c->include_opts[1], "-I%s/include/cccl", home);
  c->ninclude_opts = 2;
  return lib;
}

/* After nvrtc_resolve: load libnvrtc-builtins.so.<major>.<minor> from
 * NVRTC's own folder. */
static void nvrtc_preload_builtins(ggr_compiler *c) {
  char dir[600], name[64];
  snprintf(name, sizeof name, "libnvrtc-builtins.so.%d.%d", c->version_major, c->version_minor);
  void *sym = NULL;
  resolve(c->lib, &sym, "nvrtcVersion");
  if (ggr_lib_folder(sym, dir, sizeof dir) == 0 && ggr_preload_beside(dir, name) > 0) return;
  snprintf(c->builtins_note, sizeof c->builtins_note,
           "%s was not found next to %s; NVRTC needs it (reinstall the CUDA toolkit's NVRTC)",
           name, c->lib_path);
}

/* ---- hiprtc ---- */

static int hiprtc_resolve(ggr_compiler *c) {
  void *l = c->lib;
  int bad = 0;
  bad |= resolve(l, &c->create, "hiprtcCreateProgram");
  bad |= resolve(l, &c->compile, "hiprtcCompileProgram");
  bad |= resolve(l, &c->log_size, "hiprtcGetProgramLogSize");
  bad |= resolve(l, &c->log, "hiprtcGetProgramLog");
  bad |= resolve(l, &c->code_size, "hiprtcGetCodeSize");
  bad |= resolve(l, &c->code, "hiprtcGetCode");
  bad |= resolve(l, &c->destroy, "hiprtcDestroyProgram");
  bad |= resolve(l, &c->err_string, "hiprtcGetErrorString");
  int (*version)(int *, int *) = NULL;
  bad |= resolve(l, &version, "hiprtcVersion");
  if (!bad) version(&c->version_major, &c->version_minor);
  return bad ? -1 : 0;
}

gg_status ggr_compiler_load(gg_backend kind, ggr_compiler **out, char *err, size_t errlen) {
  *out = NULL;
  ggr_compiler *c = calloc(1, sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of host memory");
    return GG_ERR_OUT_OF_MEMORY;
  }
  c->kind = kind;
  if (kind == GG_BACKEND_HIP) {
    const char *path = NULL;
    c->name = "hiprtc";
    c->lib = ggr_hip_dlopen(&path, err, errlen);
    if (c->lib) snprintf(c->lib_path, sizeof c->lib_path, "%s", path);
  } else {
    c->name = "NVRTC";
    c->lib = nvrtc_open(c, err, errlen);
  }
  if (!c->lib) {
    free(c);
    return GG_ERR_NO_LIBRARY;
  }
  int bad = kind == GG_BACKEND_HIP ? hiprtc_resolve(c) : nvrtc_resolve(c);
  if (bad) {
    snprintf(err, errlen, "%s lacks the %s entry points", c->lib_path, c->name);
    ggr_compiler_unload(c);
    return GG_ERR_NO_LIBRARY;
  }
  if (kind == GG_BACKEND_CUDA) nvrtc_preload_builtins(c);
  *out = c;
  return GG_OK;
}

void ggr_compiler_unload(ggr_compiler *c) {
  if (!c) return;
  if (c->lib) dlclose(c->lib);
  free(c);
}

/* ---- arch checks ---- */

/* "sm_90", "sm_90a", "compute_90": the number, or -1 if malformed. */
static int cuda_arch_number(const char *arch, int *is_ptx) {
  const char *p;
  if (!strncmp(arch, "sm_", 3)) { p = arch + 3; *is_ptx = 0; }
  else if (!strncmp(arch, "compute_", 8)) { p = arch + 8; *is_ptx = 1; }
  else return -1;
  if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1])) return -1;
  char *end;
  long v = strtol(p, &end, 10);
  if (v <= 0 || v > 10000 || (*end && !((*end == 'a' || *end == 'f') && !end[1]))) return -1;
  return (int)v;
}

static int nvrtc_knows(ggr_compiler *c, int number) {
  int n = 0;
  if (!c->num_archs || !c->archs || c->num_archs(&n) || n <= 0 || n > 256) return 1;
  int list[256];
  if (c->archs(list)) return 1;
  for (int i = 0; i < n; i++)
    if (list[i] == number) return 1;
  return 0;
}

static int hip_arch_known(const char *arch) {
  for (int i = 0; hip_archs[i]; i++)
    if (!strcmp(arch, hip_archs[i])) return 1;
  return 0;
}

int gg_arch_supported(gg_backend backend, const char *arch) {
  if (!arch) return 0;
  if (backend == GG_BACKEND_HIP) return hip_arch_known(arch);
  int is_ptx, number = cuda_arch_number(arch, &is_ptx);
  if (number < 0) return 0;
  char err[256];
  ggr_compiler *c;
  if (ggr_compiler_load(GG_BACKEND_CUDA, &c, err, sizeof err)) return 0;
  int ok = nvrtc_knows(c, number);
  ggr_compiler_unload(c);
  return ok;
}

/* ---- compiling ---- */

void ggr_set_log(gg_compile_result *res, const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
  free(res->log);
  res->log = malloc(n);
  if (res->log) snprintf(res->log, n, fmt, a, b);
}

/* NVRTC writes "file.lua(12): error"; rewrite to the "file.lua:12: error"
 * that hiprtc, gcc and gpugen's own messages use, so editors jump to it. */
static void normalize_log(char *log) {
  char *w = log;
  for (char *r = log; *r;) {
    if (*r == '(' && r > log && r[-1] != ' ' && r[-1] != '\n') {
      char *q = r + 1;
      while (*q >= '0' && *q <= '9') q++;
      if (q > r + 1 && q[0] == ')' && q[1] == ':') {
        *w++ = ':';
        for (char *d = r + 1; d < q; d++) *w++ = *d;
        r = q + 1; /* the ':' after ')' is copied next */
        continue;
      }
    }
    *w++ = *r++;
  }
  *w = 0;
}

static void take_log(ggr_compiler *c, void *prog, gg_compile_result *res) {
  size_t n = 0;
  if (c->log_size(prog, &n) || n == 0) return;
  char *log = malloc(n + 1);
  if (!log) return;
  if (c->log(prog, log)) {
    free(log);
    return;
  }
  log[n] = 0;
  if (c->kind == GG_BACKEND_CUDA) normalize_log(log);
  free(res->log);
  res->log = log;
}

/* Copy the output out of the program: PTX keeps its terminating NUL,
 * which cuModuleLoadData needs to tell it from a cubin. */
static gg_status take_code(ggr_compiler *c, void *prog, int want_ptx, gg_compile_result *res) {
  int (*size_fn)(void *, size_t *) = want_ptx ? c->ptx_size : c->code_size;
  int (*code_fn)(void *, char *) = want_ptx ? c->ptx : c->code;
  size_t n = 0;
  if (size_fn(prog, &n) || n == 0) return GG_ERR_COMPILE;
  char *buf = malloc(n + 1);
  if (!buf) return GG_ERR_OUT_OF_MEMORY;
  if (code_fn(prog, buf)) {
    free(buf);
    return GG_ERR_COMPILE;
  }
  buf[n] = 0;
  res->binary = buf;
  res->binary_size = want_ptx ? strlen(buf) + 1 : n;
  return GG_OK;
}

gg_status ggr_compile_with(ggr_compiler *c, const char *arch, const char *name,
                           const char *source, const char *const *options,
                           gg_compile_result *res) {
  memset(res, 0, sizeof *res);
  int want_ptx = 0;
  char archopt[64];
  if (c->kind == GG_BACKEND_HIP) {
    if (!hip_arch_known(arch)) {
      ggr_set_log(res, "hiprtc does not know the arch '%s'%s", arch,
              " (hiprtc 5.2 would abort the process; see gg_arch_supported)");
      return res->status = GG_ERR_UNSUPPORTED;
    }
    snprintf(archopt, sizeof archopt, "--offload-arch=%s", arch);
  } else {
    int number = cuda_arch_number(arch, &want_ptx);
    if (number < 0) {
      ggr_set_log(res, "bad CUDA arch '%s'%s", arch, " (expected sm_XX or compute_XX)");
      return res->status = GG_ERR_INVALID;
    }
    if (!nvrtc_knows(c, number)) {
      ggr_set_log(res, "this NVRTC (%s) cannot target %s", c->lib_path, arch);
      return res->status = GG_ERR_UNSUPPORTED;
    }
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  }

  /* options: arch, include folders, then the descriptor's own */
  int nuser = 0;
  while (options && options[nuser]) nuser++;
  const char **opts = malloc((size_t)(nuser + 3) * sizeof *opts);
  if (!opts) return res->status = GG_ERR_OUT_OF_MEMORY;
  int nopts = 0;
  opts[nopts++] = archopt;
  for (int i = 0; i < c->ninclude_opts; i++) opts[nopts++] = c->include_opts[i];
  for (int i = 0; i < nuser; i++) opts[nopts++] = options[i];

  void *prog = NULL;
  int r = c->create(&prog, source, name ? name : "gpugen.cu", 0, NULL, NULL);
  if (r) {
    free(opts);
    ggr_set_log(res, "%s: cannot create a program: %s", c->name, c->err_string(r));
    return res->status = GG_ERR_COMPILE;
  }
  r = c->compile(prog, nopts, opts);
  free(opts);
  take_log(c, prog, res);
  gg_status st = GG_OK;
  if (r) {
    st = GG_ERR_COMPILE;
    if (!res->log) ggr_set_log(res, "%s failed: %s", c->name, c->err_string(r));
    if (c->builtins_note[0] && res->log && strstr(res->log, "builtins")) {
      char *old = res->log;
      res->log = NULL;
      ggr_set_log(res, "%s\n%s", old, c->builtins_note);
      free(old);
    }
    /* The AMDGPU back end gives up on very large kernels (seen with
       hiprtc 5.2 for gfx90a: a persistent kernel of 14 frames, each a
       for and a reduce stage), with no line to point at. */
    if (c->kind != GG_BACKEND_CUDA && res->log && strstr(res->log, "SGPR spill")) {
      char *old = res->log;
      res->log = NULL;
      ggr_set_log(res, "%s\n%s", old,
              "note: the AMDGPU back end ran out of scalar registers for this kernel; a "
              "persistent kernel holds the code of all its commands and stages: split its "
              "commands over several persistent kernels");
      free(old);
    }
  } else {
    st = take_code(c, prog, want_ptx, res);
  }
  c->destroy(&prog);
  return res->status = st;
}

/* The features that add to a module's compile (features.c), all
 * CUDA only, and the words messages use for each: a refusal names every
 * one the module asks for. */
static const struct {
  unsigned bit;
  const char *words;
} compiled_features[] = {
    {GG_FEAT_MATHDX, "MathDx (cuBLASDx/cuFFTDx)"},
    {GG_FEAT_NVSHMEM, "NVSHMEM"},
};
#define NCOMPILED_FEATURES (sizeof compiled_features / sizeof compiled_features[0])

int ggr_compiled_features(unsigned features, char *words, size_t n) {
  int total = 0, k = 0;
  for (size_t i = 0; i < NCOMPILED_FEATURES; i++) total += (features & compiled_features[i].bit) != 0;
  size_t used = 0;
  if (n) words[0] = 0;
  for (size_t i = 0; i < NCOMPILED_FEATURES; i++) {
    if (!(features & compiled_features[i].bit)) continue;
    const char *sep = k == 0 ? "" : k == total - 1 ? " and " : ", ";
    if (used < n) used += (size_t)snprintf(words + used, n - used, "%s%s", sep, compiled_features[i].words);
    k++;
  }
  return total;
}

gg_status ggr_compile_failed(gg_compile_result *res, gg_status st) {
  ggr_set_error(st, "compilation failed (%s):", gg_strerror(st));
  ggr_append_log(res->log);
  return res->status = st;
}

void gg_compile_result_free(gg_compile_result *res) {
  if (!res) return;
  free(res->log);
  free(res->binary);
  res->log = NULL;
  res->binary = NULL;
  res->binary_size = 0;
}
