/* report.h - `gpugen list` and `gpugen explain` (report.c). */
#ifndef GGI_REPORT_H
#define GGI_REPORT_H

#include <stdio.h>
#include "ir.h"

/* 0, or -1 with d->msg ("file:line: ..." when the workload is at fault).
 * kernel: a kernel, frame or persistent kernel of m. */
int ggi_list(const ggi_module *m, FILE *out, ggi_diag *d);
int ggi_explain(const ggi_module *m, const char *kernel, FILE *out, ggi_diag *d);

#endif
