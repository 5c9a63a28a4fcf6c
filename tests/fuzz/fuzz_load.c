/*
 * fuzz_load - libFuzzer harness for the generator: loader, specialize and
 * emit.
 *
 * Any byte string must load or fail with a message that names the file;
 * a module that loads must specialize, and then every output (the CUDA
 * and HIP sources, the C module and header, `list` and `explain` of each
 * kernel) must render or fail with a message: never crash, leak, hang or
 * trip a sanitizer.  The sandbox's own limits (64 MiB of Lua heap, 5e7 VM
 * instructions, FUZZ_SECONDS of CPU time) bound every input.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "emit.h"
#include "source.h"
#include "report.h"
#include "load.h"
#include "specialize.h"

#define FUZZ_SECONDS 1.0 /* per input; lower than the default so slow inputs cost less */

static char out_dir[64];

static void remove_out_dir(void) {
  DIR *dir = opendir(out_dir);
  struct dirent *e;
  char path[400];
  while (dir && (e = readdir(dir)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      snprintf(path, sizeof path, "%s/%s", out_dir, e->d_name);
      unlink(path);
    }
  if (dir) closedir(dir);
  rmdir(out_dir);
}

/* Every output, into a folder of this process and memory streams. */
static void render_all(const ggi_module *m) {
  ggi_diag d;
  char *src = NULL;
  if (ggi_render_source(m, GGI_TARGET_CUDA, NULL, &src, &d) == 0) free(src);
  src = NULL;
  if (ggi_render_source(m, GGI_TARGET_HIP, NULL, &src, &d) == 0) free(src);
  if (!out_dir[0]) {
    snprintf(out_dir, sizeof out_dir, "/tmp/fuzz_load.XXXXXX");
    if (!mkdtemp(out_dir)) __builtin_trap();
    atexit(remove_out_dir);
  }
  if (ggi_emit(m, out_dir, NULL, &d) != 0 && !d.msg[0]) __builtin_trap(); /* failures say why */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return;
  ggi_list(m, f, &d);
  for (int i = 0; i < m->nkernels; i++) ggi_explain(m, m->kernels[i].name, f, &d);
  fclose(f);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ggi_module *m = NULL;
  ggi_diag d;
  if (ggi_load_limited("fuzz.lua", (const char *)data, size, FUZZ_SECONDS, &m, &d) != 0) {
    if (strncmp(d.msg, "fuzz.lua", 8) != 0) __builtin_trap(); /* every error names the file */
    return 0;
  }
  d.msg[0] = 0;
  if (ggi_specialize(m, &d) == 0) render_all(m);
  else if (!d.msg[0]) __builtin_trap();
  ggi_module_free(m);
  return 0;
}
