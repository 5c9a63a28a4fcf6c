/*
 * reduce_emit.c - `reduce_emit FILE.lua -o DIR`: load, specialize and emit
 * a module with the generator library, exactly as `gpugen emit` does.
 * Used by the reduce tests and benchmark when the gpugen command is not
 * part of the build (gen/main.c absent), so they never depend on it.
 */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "load.h"
#include "specialize.h"

int main(int argc, char **argv)
{
  const char *templates = argc == 6 && strcmp(argv[4], "--templates") == 0 ? argv[5] : NULL;
  if ((argc != 4 && !templates) || strcmp(argv[2], "-o") != 0) {
    fprintf(stderr, "usage: reduce_emit FILE.lua -o DIR [--templates DIR]\n");
    return 2;
  }
  ggi_module *m;
  ggi_diag d;
  if (ggi_load(argv[1], NULL, 0, &m, &d) || ggi_specialize(m, &d) || ggi_emit(m, argv[3], templates, &d)) {
    fprintf(stderr, "%s\n", d.msg);
    return 1;
  }
  ggi_module_free(m);
  return 0;
}
