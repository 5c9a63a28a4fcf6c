/* emit_persistent.h - the source of a persistent kernel (emit_persistent.c). */
#ifndef GGI_EMIT_PERSISTENT_H
#define GGI_EMIT_PERSISTENT_H

#include "ir.h"
#include "strbuf.h"

/* Appends persistent kernel p of module m (target GGI_TARGET_CUDA or
 * GGI_TARGET_HIP) to out, shaped as the plan stage stored it.  When it
 * is called, out already holds the prelude and, for every kernel of the
 * module, its args struct `gg_args_<name>` and its body function
 * `__device__ void GG_NS_<name>::gg_body(const gg_args_<name>&, const gg_grid&)`
 * (command kernels included), so the persistent loop only adds the mailbox
 * mirror, the loop, and a switch calling the bodies.  The symbol is
 * `gg_persist_<name>`.  Returns 0, or -1 with d->msg set. */
int ggi_emit_persistent(const ggi_module *m, const ggi_persistent *p, unsigned target,
                        const char *templates_dir, ggi_buf *out, ggi_diag *d);

#endif
