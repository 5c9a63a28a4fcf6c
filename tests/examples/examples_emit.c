/*
 * examples_emit.c - `gpugen emit FILE.lua -o DIR` for tests/examples,
 * through the generator's library (ggi_load, ggi_specialize, ggi_emit),
 * so these tests build before and without the gpugen command line.
 *
 *   examples_emit FILE.lua DIR     writes DIR/<module>.{c,h,cu,hip}
 */
#include <stdio.h>

#include "emit.h"
#include "load.h"
#include "specialize.h"

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: examples_emit FILE.lua DIR\n");
    return 2;
  }
  ggi_module *m = NULL;
  ggi_diag d = {{0}};
  int rc = ggi_load(argv[1], NULL, 0, &m, &d);
  if (rc == 0) rc = ggi_specialize(m, &d);
  if (rc == 0) rc = ggi_emit(m, argv[2], NULL, &d);
  if (rc != 0) fprintf(stderr, "%s\n", d.msg);
  ggi_module_free(m);
  return rc == 0 ? 0 : 1;
}
