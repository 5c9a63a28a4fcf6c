/* emit.h - render kernel sources and the C module from the IR. */
#ifndef GGI_EMIT_H
#define GGI_EMIT_H

#include <stdio.h>
#include "ir.h"

/* The whole kernel source of module m for one target (GGI_TARGET_CUDA or
 * GGI_TARGET_HIP), malloc'ed into *out.  templates_dir NULL: the embedded
 * templates.  Returns 0, or -1 with d->msg set. */
int ggi_render_source(const ggi_module *m, unsigned target, const char *templates_dir,
                      char **out, ggi_diag *d);

/* Write <dir>/<module>.cu, .hip, .c and .h (deterministic bytes). */
int ggi_emit(const ggi_module *m, const char *dir, const char *templates_dir, ggi_diag *d);

/* `gpugen list` and `gpugen explain`. */
int ggi_list(const ggi_module *m, FILE *out);
int ggi_explain(const ggi_module *m, const char *kernel, FILE *out, ggi_diag *d);

#endif
