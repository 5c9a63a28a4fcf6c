/* check.h - compile every generated kernel offline with NVRTC / hiprtc. */
#ifndef GGI_CHECK_H
#define GGI_CHECK_H

#include <stdio.h>
#include "ir.h"

#define GGI_MAX_ARCHS 32     /* the most different archs one check compiles for */
#define GGI_ARCH_NAME_MAX 16 /* an arch name's bytes, its NUL included */

/* The archs of a list, each once, in the order first named. */
typedef struct ggi_archs {
  int n;
  char name[GGI_MAX_ARCHS][GGI_ARCH_NAME_MAX];
} ggi_archs;

/* list: comma-separated ("sm_80,sm_90,gfx90a,gfx1030"); NULL or "" = those
 * four.  A repeated arch counts once.  Returns 0, or -1 with d->msg naming
 * the first unknown archs (three at most, and how many more) and what is
 * allowed, or saying the list names more than GGI_MAX_ARCHS different
 * ones.  Known: sm_NN and compute_NN (2 to 4 digits, an optional a or f;
 * NVRTC may still not support one, a failed compile) and the gfx archs
 * hiprtc knows. */
int ggi_arch_list(const char *list, ggi_archs *out, ggi_diag *d);

/* archs: a list as ggi_arch_list reads it, checked first.  Prints one
 * line per (target, arch) to out; compile errors come with the workload's
 * file:line (the sources carry #line).  Returns 0 when all compiled, -1
 * otherwise with d->msg summarizing. */
int ggi_check(const ggi_module *m, const char *archs, const char *templates_dir,
              FILE *out, ggi_diag *d);

#endif
