/*
 * emit_tool.c - the generator's back end, driven from the tests without
 * the gpugen command line (so these tests don't depend on main.c):
 *
 *   emit_tool emit FILE.lua DIR            like `gpugen emit FILE.lua -o DIR`
 *   emit_tool check FILE.lua [ARCHS]       like `gpugen check`; exit 77 when
 *                                          NVRTC or hiprtc is not installed
 *   emit_tool check-fails FILE.lua ARCHS TEXT...
 *                                          check must fail and its output
 *                                          must contain every TEXT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "gg.h"
#include "load.h"
#include "specialize.h"

static ggi_module *load(const char *file)
{
  ggi_module *m = NULL;
  ggi_diag d = {{0}};
  if (ggi_load(file, NULL, 0, &m, &d) != 0 || ggi_specialize(m, &d) != 0) {
    fprintf(stderr, "%s\n", d.msg);
    ggi_module_free(m);
    return NULL;
  }
  return m;
}

/* 1 when the compiler of this backend can be loaded at all. */
static int have_compiler(gg_backend be, const char *arch)
{
  gg_compile_result r;
  gg_status st = gg_compile(be, arch, "probe.cu", "extern \"C\" __global__ void k() {}", NULL, &r);
  if (st == GG_ERR_NO_LIBRARY) fprintf(stderr, "skipped: %s\n", r.log ? r.log : "no compiler");
  gg_compile_result_free(&r);
  return st != GG_ERR_NO_LIBRARY;
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: emit_tool emit|check|check-fails FILE.lua ...\n");
    return 2;
  }
  ggi_module *m = load(argv[2]);
  if (!m) return 1;
  ggi_diag d = {{0}};
  int rc = 0;
  if (strcmp(argv[1], "emit") == 0 && argc == 4) {
    rc = ggi_emit(m, argv[3], NULL, &d);
  } else if (strcmp(argv[1], "check") == 0) {
    if (!have_compiler(GG_BACKEND_CUDA, "sm_80") || !have_compiler(GG_BACKEND_HIP, "gfx90a")) {
      ggi_module_free(m);
      return 77;
    }
    rc = ggi_check(m, argc > 3 ? argv[3] : NULL, NULL, stdout, &d);
  } else if (strcmp(argv[1], "check-fails") == 0 && argc >= 5) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) return 1;
    rc = ggi_check(m, argv[3], NULL, out, &d);
    fprintf(out, "%s\n", d.msg); /* the summary counts as output too */
    fclose(out);
    fputs(text, stdout);
    int missing = 0;
    for (int i = 4; i < argc; i++)
      if (!strstr(text, argv[i])) {
        fprintf(stderr, "FAIL: the output lacks \"%s\"\n", argv[i]);
        missing = 1;
      }
    if (rc == 0) fprintf(stderr, "FAIL: check succeeded on a broken body\n");
    free(text);
    ggi_module_free(m);
    return rc != 0 && !missing ? 0 : 1;
  } else {
    fprintf(stderr, "emit_tool: bad arguments\n");
    rc = -1;
  }
  if (rc != 0 && d.msg[0]) fprintf(stderr, "%s\n", d.msg);
  ggi_module_free(m);
  return rc == 0 ? 0 : 1;
}
