/* emit_persistent.h - the shape of a persistent kernel (gen/emit_persistent.c).
 *
 * emit.c fills gg_persistent_desc from these numbers so the descriptor and
 * the rendered kernel (whose __launch_bounds__ and pseudo-block split come
 * from the same function) always agree. */
#ifndef GGI_EMIT_PERSISTENT_H
#define GGI_EMIT_PERSISTENT_H

#include "ir.h"

typedef struct ggi_persistent_shape {
  int block;          /* hardware threads per block: gg_persistent_desc.block_size */
  int blocks;         /* hardware blocks: 1, or p->blocks (0 = all co-resident) */
  int groups;         /* pseudo-blocks per hardware block (1 unless thread_groups/hybrid) */
  int group_threads;  /* threads per pseudo-block */
} ggi_persistent_shape;

/* Check p against the target's limits and compute its shape.  Returns 0,
 * or -1 with d->msg = "file:line: ...". */
int ggi_persistent_shape_of(const ggi_module *m, const ggi_persistent *p, unsigned target,
                            ggi_persistent_shape *s, ggi_diag *d);

#endif
