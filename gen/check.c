/*
 * check.c - `gpugen check`: render each target's source and compile it
 * offline with the runtime's gg_compile (NVRTC for sm_/compute_, hiprtc
 * for gfx), one line per (target, arch).  The sources carry #line, so
 * compiler messages name the workload's FILE.lua:LINE; NVRTC's
 * "file(12): error" is rewritten to the usual "file:12: error".
 */
#include "check.h"
#include "source.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emit.h"
#include "names.h"
#include "plan.h"
#include "gg.h"

#define DEFAULT_ARCHS "sm_80,sm_90,gfx90a,gfx1030"
#define ARCHS_ALLOWED                                                                              \
  "give sm_NN or compute_NN for NVRTC (e.g. sm_80, sm_90a) or a gfx arch hiprtc knows (e.g. "      \
  "gfx90a, gfx1030), separated by commas"


static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned arch_target(const char *arch)
{
  if (strncmp(arch, "sm_", 3) == 0 || strncmp(arch, "compute_", 8) == 0) return GGI_TARGET_CUDA;
  if (strncmp(arch, "gfx", 3) == 0) return GGI_TARGET_HIP;
  return 0;
}

/* Whether arch names one the compilers can be asked for: sm_NN or
 * compute_NN (2 to 4 digits, no leading 0, an optional a or f suffix:
 * sm_90a, sm_100f), which NVRTC then takes or reports it does not know;
 * or a gfx arch on hiprtc's list (hiprtc aborts the process on others). */
static int arch_known(const char *arch)
{
  if (arch_target(arch) == GGI_TARGET_HIP) return gg_arch_supported(GG_BACKEND_HIP, arch);
  if (arch_target(arch) != GGI_TARGET_CUDA) return 0;
  const char *p = arch + (arch[0] == 's' ? 3 : 8);
  size_t digits = strspn(p, "0123456789");
  if (digits < 2 || digits > 4 || p[0] == '0') return 0;
  p += digits;
  return p[0] == 0 || ((p[0] == 'a' || p[0] == 'f') && p[1] == 0);
}

int ggi_arch_list(const char *list, ggi_archs *out, ggi_diag *d)
{
  if (!list || !*list) list = DEFAULT_ARCHS;
  char bad[3 * (GGI_ARCH_NAME_MAX * 4 + 8)] = ""; /* the first three unknown, quoted */
  int nbad = 0, too_many = 0;
  out->n = 0;
  for (const char *a = list;; a++) {
    size_t n = strcspn(a, ",");
    char name[GGI_ARCH_NAME_MAX];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : 0), a);
    if (n >= sizeof name || !arch_known(name)) {
      if (nbad++ < 3) { /* shown clipped and escaped: it is whatever argv held */
        char raw[GGI_ARCH_NAME_MAX + 1], clean[GGI_ARCH_NAME_MAX * 4 + 1];
        snprintf(raw, sizeof raw, "%.*s", (int)n, a);
        ggi_clean(clean, sizeof clean, raw);
        size_t at = strlen(bad);
        snprintf(bad + at, sizeof bad - at, "%s'%s%s'", at ? ", " : "", clean,
                 n > GGI_ARCH_NAME_MAX ? "..." : "");
      }
    } else {
      int seen = 0;
      for (int i = 0; i < out->n && !seen; i++) seen = strcmp(out->name[i], name) == 0;
      if (!seen && out->n == GGI_MAX_ARCHS) too_many = 1;
      else if (!seen) memcpy(out->name[out->n++], name, sizeof name);
    }
    a += n;
    if (!*a) break;
  }
  if (nbad > 3)
    return ggi_fail(d, "unknown archs %s and %d more: " ARCHS_ALLOWED, bad, nbad - 3);
  if (nbad)
    return ggi_fail(d, "unknown arch%s %s: " ARCHS_ALLOWED, nbad > 1 ? "s" : "", bad);
  if (too_many)
    return ggi_fail(d, "more than %d different archs: give at most %d (a repeated arch counts once)",
                    GGI_MAX_ARCHS, GGI_MAX_ARCHS);
  return 0;
}

/* Print the compiler log, "FILE(N): " turned into "FILE:N: "; control
 * characters (a workload path may hold them) escaped. */
static void print_log(FILE *out, const char *log)
{
  while (log && *log) {
    const char *nl = strchr(log, '\n');
    size_t len = nl ? (size_t)(nl - log) : strlen(log);
    const char *paren = memchr(log, '(', len);
    size_t digits = 0;
    if (paren)
      while (paren + 1 + digits < log + len && paren[1 + digits] >= '0' && paren[1 + digits] <= '9')
        digits++;
    char *line = malloc(len + 2);
    if (!line) return;
    if (paren && paren > log && digits && paren + 2 + digits < log + len &&
        paren[1 + digits] == ')' && paren[2 + digits] == ':' && !memchr(log, ' ', (size_t)(paren - log))) {
      snprintf(line, len + 2, "%.*s:%.*s%.*s", (int)(paren - log), log, (int)digits, paren + 1,
               (int)(len - (size_t)(paren + 2 + digits - log)), paren + 2 + digits);
    } else {
      snprintf(line, len + 2, "%.*s", (int)len, log);
    }
    fputs("    ", out);
    ggi_print_clean(out, line);
    fputc('\n', out);
    free(line);
    log += len + (nl ? 1 : 0);
  }
}

static int count_kernels(const ggi_module *m, unsigned target)
{
  int n = 0;
  for (int i = 0; i < m->nkernels; i++) n += (m->kernels[i].targets & target) != 0;
  for (int i = 0; i < m->npersistent; i++) n += (m->persistent[i].targets & target) != 0;
  return n;
}

/* What the module's kernels on target need from the compile (GG_FEAT_*). */
static unsigned module_features(const ggi_module *m, unsigned target)
{
  unsigned f = 0;
  for (int i = 0; i < m->nkernels; i++) {
    const ggi_plan *p = ggi_plan_of(&m->kernels[i], target);
    if (p) f |= p->features;
  }
  return f;
}

/* Compile src for one arch; prints the ok/FAIL line.  1 = compiled. */
static int compile_one(const ggi_module *m, unsigned target, const char *arch, const char *src,
                       FILE *out)
{
  const char *tname = target == GGI_TARGET_HIP ? "hip " : "cuda";
  gg_backend be = target == GGI_TARGET_HIP ? GG_BACKEND_HIP : GG_BACKEND_CUDA;
  char name[300];
  snprintf(name, sizeof name, "%s.%s", m->name, target == GGI_TARGET_HIP ? "hip" : "cu");
  gg_compile_result res;
  double t0 = now_ms();
  /* the runtime's own compile: it adds what the kernels' features need
     (MathDx's folders) and names the install command where that is missing */
  gg_status st = gg_compile_features(be, arch, name, src,
                                     target == GGI_TARGET_HIP ? ggi_hip_options : ggi_cuda_options,
                                     module_features(m, target), &res);
  double ms = now_ms() - t0;
  if (st == GG_OK) {
    fprintf(out, "ok    %s %-8s %s  (%d kernels, %.0f ms)\n", tname, arch, m->name,
            count_kernels(m, target), ms);
  } else {
    /* offline there is no device: an unsupported arch is the compiler's */
    fprintf(out, "FAIL  %s %-8s %s  (%s)\n", tname, arch, m->name,
            st == GG_ERR_UNSUPPORTED ? "not supported by this compiler" : gg_strerror(st));
    print_log(out, res.log);
  }
  gg_compile_result_free(&res);
  /* each line as it is known, and before the summary that goes to stderr,
   * so that a log of both streams reads in order */
  fflush(out);
  return st == GG_OK;
}

int ggi_check(const ggi_module *m, const char *archs, const char *templates_dir, FILE *out,
              ggi_diag *d)
{
  /* the whole list is validated before anything compiles */
  ggi_archs list;
  if (ggi_arch_list(archs, &list, d) != 0) return -1;
  char *src[2] = {NULL, NULL};
  int tried = 0, ok = 0, rc = 0;
  for (int i = 0; rc == 0 && i < list.n; i++) {
    const char *a = list.name[i];
    unsigned t = arch_target(a);
    int ti = t == GGI_TARGET_HIP;
    if (!(m->targets & t)) {
      fprintf(out, "skip  %s %-8s %s  (the module does not target %s)\n", ti ? "hip " : "cuda", a,
              m->name, ti ? "hip" : "cuda");
    } else {
      if (!src[ti]) rc = ggi_render_source(m, t, templates_dir, &src[ti], d);
      if (rc == 0) {
        tried++;
        ok += compile_one(m, t, a, src[ti], out);
      }
    }
  }
  free(src[0]);
  free(src[1]);
  if (rc != 0) return -1;
  if (ok < tried)
    return ggi_fail_at(d, m->file ? m->file : m->name, 0, "%d of %d compilations failed (see above)",
                       tried - ok, tried);
  return 0;
}
