/* check.h - compile every generated kernel offline with NVRTC / hiprtc. */
#ifndef GGI_CHECK_H
#define GGI_CHECK_H

#include <stdio.h>
#include "ir.h"

/* archs: comma-separated ("sm_80,sm_90,gfx90a,gfx1030"); NULL = those four.
 * Prints one line per (target, arch) to out; compile errors come with the
 * workload's file:line (the sources carry #line).  Returns 0 when all
 * compiled, -1 otherwise with d->msg summarizing. */
int ggi_check(const ggi_module *m, const char *archs, const char *templates_dir,
              FILE *out, ggi_diag *d);

#endif
