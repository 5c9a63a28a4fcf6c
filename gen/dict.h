/* dict.h - the per-kernel template values (dict.c). */
#ifndef GGI_DICT_H
#define GGI_DICT_H

#include "plan.h"
#include "render.h"

/* A `#line` back to the generated file after a body snippet; source.c
 * fixes it up once the whole source is known. */
#define GGI_LINE_BACK "#line GG_LINE_BACK"

/* The per-kernel dictionary every template gets (NAME, SYMBOL, ARGS_T,
 * ARGS_FIELDS, UNPACK, VIEW_MACROS, ...; see docs/internals.md) plus the
 * plan's extra keys.  p is the kernel's stored plan for target.  Strings
 * go to the module's arena.  Returns 0, or -1 with d->msg set. */
int ggi_kernel_dict(const ggi_module *m, const ggi_kernel *k, unsigned target,
                    const ggi_plan *p, ggi_dict *dict, ggi_diag *d);

/* The C type of an argument struct field in generated code ("const float *"). */
const char *ggi_field_ctype(const ggi_kernel *k, const ggi_field *f, ggi_arena *a);

#endif
