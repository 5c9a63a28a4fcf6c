/*
 * toolkit.c - where the vendor libraries come from, decided in one place.
 *
 * The CUDA toolkit is $CUDA_HOME when that is set (and then only it: the
 * user chose it), else the folder found at build time (GG_CUDA_HOME_DEFAULT),
 * and only when $CUDA_HOME is not set also the loader's default search path.
 * NVRTC, nvJitLink and libcudadevrt.a all come from that one toolkit, so
 * their versions match.  The HIP runtime (which holds hiprtc) is
 * $GG_HIP_LIBRARY, else libamdhip64 on the default search path.
 *
 * A toolkit installed by a runfile, a tarball or in a container is often
 * not registered with the dynamic loader (no ld.so.conf entry, no
 * LD_LIBRARY_PATH).  Opening libnvrtc by its full path works there, but
 * NVRTC then opens libnvrtc-builtins.so.<major>.<minor> by bare name, and
 * that fails ("failed to open libnvrtc-builtins.so.13.0").  glibc matches a
 * bare-name dlopen against the sonames of libraries already loaded, so
 * loading the builtins by full path first, from the folder NVRTC came
 * from, makes NVRTC find them whatever the loader's configuration.  The HIP
 * runtime does the same with its code-object manager (libamd_comgr) and,
 * in newer ROCm, libhiprtc-builtins: those are preloaded from the HIP
 * library's folder too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "toolkit.h"

#ifndef GG_CUDA_HOME_DEFAULT
#define GG_CUDA_HOME_DEFAULT "/usr/local/cuda"
#endif

/* NODELETE: vendor libraries stay mapped once loaded (LLVM-based libraries
 * do not unload cleanly, and their allocations stay attributable). */
enum { OPEN_FLAGS = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE };

const char *const ggr_nvrtc_sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", NULL};

const char *ggr_cuda_home(void) {
  const char *env = getenv("CUDA_HOME");
  return env && *env ? env : GG_CUDA_HOME_DEFAULT;
}

int ggr_cuda_home_from_env(void) {
  const char *env = getenv("CUDA_HOME");
  return env && *env;
}

int ggr_cuda_toolkit_present(void) {
  char pat[700];
  snprintf(pat, sizeof pat, "%s/lib64/libnvrtc.so*", ggr_cuda_home());
  glob_t g;
  int found = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;
  globfree(&g);
  return found;
}

/* Append ", item" to a bounded list of what was tried. */
static void add_tried(char *tried, size_t n, const char *item) {
  size_t used = strlen(tried);
  if (used + 1 < n) snprintf(tried + used, n - used, "%s%s", used ? ", " : "", item);
}

void *ggr_toolkit_dlopen(const char *const *sonames, char *path, size_t pathlen, char *tried,
                         size_t triedlen) {
  if (triedlen) tried[0] = 0;
  for (int pass = 0; pass < 2; pass++) {
    /* pass 0: the toolkit's lib64; pass 1: the default search path, only
     * when $CUDA_HOME was not given. */
    if (pass == 1 && ggr_cuda_home_from_env()) break;
    for (size_t i = 0; sonames[i]; i++) {
      if (pass == 0)
        snprintf(path, pathlen, "%s/lib64/%s", ggr_cuda_home(), sonames[i]);
      else
        snprintf(path, pathlen, "%s", sonames[i]);
      void *lib = dlopen(path, OPEN_FLAGS);
      if (lib) return lib;
      add_tried(tried, triedlen, path);
    }
  }
  return NULL;
}

int ggr_lib_folder(void *symbol, char *dir, size_t n) {
  Dl_info info;
  if (!symbol || !dladdr(symbol, &info) || !info.dli_fname || info.dli_fname[0] != '/') return -1;
  const char *slash = strrchr(info.dli_fname, '/');
  size_t len = (size_t)(slash - info.dli_fname);
  if (len == 0) len = 1; /* the root folder */
  if (len >= n) return -1;
  memcpy(dir, info.dli_fname, len);
  dir[len] = 0;
  return 0;
}

int ggr_preload_beside(const char *dir, const char *pattern) {
  char pat[1100];
  if ((size_t)snprintf(pat, sizeof pat, "%s/%s", dir, pattern) >= sizeof pat) return 0;
  glob_t g;
  int loaded = 0;
  if (glob(pat, 0, NULL, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; i++)
      if (dlopen(g.gl_pathv[i], OPEN_FLAGS)) loaded++;
    globfree(&g);
  }
  return loaded;
}

void *ggr_hip_dlopen(const char **path_out, char *err, size_t errlen) {
  const char *env = getenv("GG_HIP_LIBRARY");
  static const char *const names[] = {"libamdhip64.so.5", "libamdhip64.so.6", "libamdhip64.so"};
  void *lib = NULL;
  if (env && *env) {
    lib = dlopen(env, OPEN_FLAGS);
    if (!lib) snprintf(err, errlen, "HIP library %s (GG_HIP_LIBRARY) could not be opened: %s", env,
                       dlerror());
    *path_out = env;
  } else {
    for (size_t i = 0; i < sizeof names / sizeof *names && !lib; i++)
      if ((lib = dlopen(names[i], OPEN_FLAGS))) *path_out = names[i];
    if (!lib)
      snprintf(err, errlen, "HIP library not found (tried libamdhip64.so.5, libamdhip64.so.6, "
               "libamdhip64.so); install ROCm (Debian: libamdhip64-dev) or set GG_HIP_LIBRARY");
  }
  char dir[1024];
  if (lib && ggr_lib_folder(dlsym(lib, "hipGetDeviceCount"), dir, sizeof dir) == 0) {
    ggr_preload_beside(dir, "libamd_comgr.so.[0-9]*");
    ggr_preload_beside(dir, "libhiprtc-builtins.so.[0-9]*");
  }
  return lib;
}

/* ---- optional vendor folders: MathDx, NVSHMEM ----
 * Each is its environment variable when set (and then only it), else the
 * folder configured at build time (CMake's GG_MATHDX_DIR, GG_NVSHMEM_DIR).
 * Only modules whose kernels carry the feature bit ask for one. */
#ifndef GG_MATHDX_DIR_DEFAULT
#define GG_MATHDX_DIR_DEFAULT ""
#endif
#ifndef GG_NVSHMEM_DIR_DEFAULT
#define GG_NVSHMEM_DIR_DEFAULT ""
#endif

typedef struct vendor_dir {
  const char *what;    /* "MathDx (cuBLASDx/cuFFTDx headers)" */
  const char *env;     /* the variable that overrides the built-in folder */
  const char *built;   /* the folder configured at build time */
  const char *probe;   /* a file every install has, under the folder */
  const char *install; /* how to get it, for the message */
} vendor_dir;

static const vendor_dir mathdx_dir = {
  "MathDx (cuBLASDx/cuFFTDx headers)", "GG_MATHDX_DIR", GG_MATHDX_DIR_DEFAULT,
  "include/cublasdx.hpp",
  "install it with scripts/fetch-mathdx.py .deps/mathdx (or scripts/deps.sh) and rebuild, or "
  "set GG_MATHDX_DIR to the folder holding include/cublasdx.hpp"};

static const vendor_dir nvshmem_dir = {
  "NVSHMEM (headers, device and host libraries)", "GG_NVSHMEM_DIR", GG_NVSHMEM_DIR_DEFAULT,
  "include/nvshmem.h",
  "install it with scripts/fetch-nvshmem.py .deps/nvshmem (or scripts/deps.sh) and rebuild, or "
  "set GG_NVSHMEM_DIR to the folder holding include/nvshmem.h and lib/"};

static int find_vendor_dir(const vendor_dir *v, char *dir, size_t n, char *why, size_t whylen) {
  const char *env = getenv(v->env);
  int from_env = env && *env;
  const char *d = from_env ? env : v->built;
  char probe[1200];
  struct stat sb;
  snprintf(probe, sizeof probe, "%s/%s", d, v->probe);
  if (*d && strlen(d) < n && stat(probe, &sb) == 0 && S_ISREG(sb.st_mode)) {
    snprintf(dir, n, "%s", d);
    return 0;
  }
  if (!*d)
    snprintf(why, whylen, "%s is not installed: this libgg was built without its folder and %s "
             "is not set; %s", v->what, v->env, v->install);
  else
    snprintf(why, whylen, "%s is not installed: %s (%s) holds no %s; %s", v->what, d,
             from_env ? v->env : "the folder configured at build time", v->probe, v->install);
  return -1;
}

int ggr_mathdx_dir(char *dir, size_t n, char *why, size_t whylen) {
  return find_vendor_dir(&mathdx_dir, dir, n, why, whylen);
}

int ggr_nvshmem_dir(char *dir, size_t n, char *why, size_t whylen) {
  return find_vendor_dir(&nvshmem_dir, dir, n, why, whylen);
}

/* What identifies an install in the kernel cache key, cheaply: the
 * contents of its small version headers (the first nread files: they name
 * the release) plus the size and mtime of every file listed.  Hashing
 * every header (MathDx: ~2000 files, 30 MB with CUTLASS) would cost more
 * than a cache hit saves; a release changes the version headers, and any
 * unpacking over the folder (another wheel, a hand edit) changes mtimes. */
static void vendor_identity(const char *name, const char *dir, const char *const *files,
                            size_t nfiles, size_t nread, char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "%s %s", name, dir);
  for (size_t i = 0; i < nfiles && used < n; i++) {
    char path[1200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    if (stat(path, &sb) != 0) {
      used += (size_t)snprintf(buf + used, n - used, "|%s -", files[i]);
      continue;
    }
    used += (size_t)snprintf(buf + used, n - used, "|%s %lld %lld.%09ld", files[i],
                             (long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
                             sb.st_mtim.tv_nsec);
    /* the version headers are small (~1 KiB): their text goes in whole */
    FILE *f = i < nread ? fopen(path, "r") : NULL;
    if (!f) continue;
    if (used < n) used += fread(buf + used, 1, n - used - 1 > 4096 ? 4096 : n - used - 1, f);
    fclose(f);
    if (used < n) buf[used] = 0;
  }
  if (n) buf[n - 1] = 0;
}

void ggr_mathdx_identity(const char *dir, char *buf, size_t n) {
  static const char *const files[] = {
    "include/cublasdx/cublasdx_version.hpp", "include/cufftdx/cufftdx_version.hpp",
    "include/commondx/commondx_version.hpp", "include/cublasdx.hpp", "include/cufftdx.hpp",
    "include/cublasdx/cublasdx.hpp", "include/cufftdx/cufftdx.hpp"};
  vendor_identity("MathDx", dir, files, sizeof files / sizeof *files, 3, buf, n);
}

/* NVSHMEM: its version header, the device library every module links and
 * the top headers a kernel includes. */
void ggr_nvshmem_identity(const char *dir, char *buf, size_t n) {
  static const char *const files[] = {"include/non_abi/nvshmem_version.h",
                                      "lib/libnvshmem_device.a", "include/nvshmem.h",
                                      "include/nvshmemx.h"};
  vendor_identity("NVSHMEM", dir, files, sizeof files / sizeof *files, 1, buf, n);
}
