/*
 * compiler-probe.c - one trivial compile with NVRTC (sm_XX) and with hiprtc
 * (gfxNNN), through the runtime's own gg_compile (built from every file of runtime/
 * together with this file by scripts/deps.sh), so
 * that the set-up proves the compilers work the way libgg will use them,
 * before anything else is built.
 *
 *   compiler-probe cuda sm_90      exit 0: compiled; 1: failed (the reason on stderr)
 *   compiler-probe hip gfx90a
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "cuda") && strcmp(argv[1], "hip"))) {
    fprintf(stderr, "usage: compiler-probe cuda|hip ARCH\n");
    return 2;
  }
  int hip = !strcmp(argv[1], "hip");
  static const char src[] = "extern \"C\" __global__ void probe(int *p) { p[0] = 1; }\n";
  char err[1200];
  ggr_compiler *c;
  gg_status st = ggr_compiler_load(hip ? GG_BACKEND_HIP : GG_BACKEND_CUDA, &c, err, sizeof err);
  if (st) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  gg_compile_result res;
  st = ggr_compile_with(c, argv[2], "probe.cu", src, NULL, &res);
  if (st)
    fprintf(stderr, "%s %d.%d (%s) could not compile a one-line kernel for %s: %s\n%s\n", c->name,
            c->version_major, c->version_minor, c->lib_path, argv[2], st == GG_ERR_COMPILE ? "compile error" : "not supported",
            res.log ? res.log : "");
  else if (hip) /* hiprtcVersion reports a HIP build number, not the release */
    printf("%s (%s) compiles for %s\n", c->name, c->lib_path, argv[2]);
  else
    printf("%s %d.%d (%s) compiles for %s\n", c->name, c->version_major, c->version_minor,
           c->lib_path, argv[2]);
  gg_compile_result_free(&res);
  ggr_compiler_unload(c);
  return st ? 1 : 0;
}
