/* load.h - run a workload file in the Lua sandbox and validate it into IR. */
#ifndef GGI_LOAD_H
#define GGI_LOAD_H

#include <stddef.h>
#include "ir.h"

/* Load `path` (or, when text != NULL, `len` bytes of text shown as `path`)
 * into a validated module.  Returns 0 and sets *out, or returns -1 with
 * d->msg = "file:line: what is wrong and what is allowed". */
int ggi_load(const char *path, const char *text, size_t len, ggi_module **out, ggi_diag *d);

#endif
