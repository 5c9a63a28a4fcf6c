/* load.h - run a workload file in the Lua sandbox and validate it into IR. */
#ifndef GGI_LOAD_H
#define GGI_LOAD_H

#include <stddef.h>
#include "ir.h"

#define GGI_TIME_LIMIT 2.0                  /* seconds of CPU time for one load, the default */
#define GGI_TIME_LIMIT_MAX 3600.0           /* the most --time-limit accepts */

/* Load `path` (or, when text != NULL, `len` bytes of text shown as `path`)
 * into a validated module.  Returns 0 and sets *out, or returns -1 with
 * d->msg = "file:line: what is wrong and what is allowed". */
int ggi_load(const char *path, const char *text, size_t len, ggi_module **out, ggi_diag *d);

/* The same with a time limit of `seconds` of CPU time for the whole load
 * instead of the default (GGI_TIME_LIMIT); <= 0: the default. */
int ggi_load_limited(const char *path, const char *text, size_t len, double seconds, ggi_module **out,
                     ggi_diag *d);

#endif
