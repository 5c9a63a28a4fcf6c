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

/* The compiler options the module descriptor carries (NULL-terminated):
 * C++17 for the preludes, exact math.  Include paths and the arch are the
 * runtime's job.  `gpugen check` compiles with the same ones. */
extern const char *const ggi_cuda_options[];
extern const char *const ggi_hip_options[];

/* `gpugen list` and `gpugen explain`: 0, or -1 with d->msg ("file:line: ..."
 * when the workload is at fault, e.g. a persistent kernel its plan refuses). */
int ggi_list(const ggi_module *m, FILE *out, ggi_diag *d);
int ggi_explain(const ggi_module *m, const char *kernel, FILE *out, ggi_diag *d);

/* ---- shared with emit_persistent.c (engineer "persist") ---- */

#include "plan.h"
#include "strbuf.h"

/* A per-kernel dictionary of {{KEY}} values.  Keys and values are not
 * copied: they must outlive the dictionary (arena or static strings). */
#define GGI_DICT_MAX 64
typedef struct ggi_dict {
  int n;
  const char *keys[GGI_DICT_MAX];
  const char *values[GGI_DICT_MAX];
} ggi_dict;

/* Sets (or replaces) key.  Returns 0, or -1 when the dictionary is full. */
int ggi_dict_set(ggi_dict *dict, const char *key, const char *value);

/* Appends template `path` (relative to templates/, from templates_dir or
 * the embedded table) to out with every {{KEY}} replaced from dict.  An
 * unknown key or template is an error naming both.  Returns 0 or -1. */
int ggi_render_template(const char *templates_dir, const char *path, const ggi_dict *dict,
                        ggi_buf *out, ggi_diag *d);

/* The per-kernel dictionary every template gets (NAME, SYMBOL, ARGS_T,
 * ARGS_FIELDS, UNPACK, VIEW_MACROS, ...; see docs/internals.md) plus the
 * plan's extra keys.  Strings go to the module's arena. */
int ggi_kernel_dict(const ggi_module *m, const ggi_kernel *k, unsigned target,
                    const ggi_plan *p, ggi_dict *dict, ggi_diag *d);

/* In emit_persistent.c.  Appends persistent kernel
 * p of module m (target GGI_TARGET_CUDA or GGI_TARGET_HIP) to out.  When it
 * is called, out already holds the prelude and, for every kernel of the
 * module, its args struct `gg_args_<name>` and its body function
 * `__device__ void gg_body_<name>(const gg_args_<name>&, const gg_grid&)`
 * (command kernels included), so the persistent loop only adds the mailbox
 * mirror, the loop, and a switch calling the bodies.  The symbol must be
 * `gg_persist_<name>`.  Returns 0, or -1 with d->msg set. */
int ggi_emit_persistent(const ggi_module *m, const ggi_persistent *p, unsigned target,
                        const char *templates_dir, ggi_buf *out, ggi_diag *d);

#endif
