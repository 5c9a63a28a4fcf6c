/* emit.h - write a module's files: sources, descriptor and header (emit.c). */
#ifndef GGI_EMIT_H
#define GGI_EMIT_H

#include "ir.h"

/* Write <dir>/<module>.cu, .hip, .c and .h (deterministic bytes).
 * Returns 0, or -1 with d->msg set. */
int ggi_emit(const ggi_module *m, const char *dir, const char *templates_dir, ggi_diag *d);

/* The compiler options the module descriptor carries (NULL-terminated):
 * C++17 for the preludes, exact math.  Include paths and the arch are the
 * runtime's job.  `gpugen check` compiles with the same ones. */
extern const char *const ggi_cuda_options[];
extern const char *const ggi_hip_options[];

#endif
