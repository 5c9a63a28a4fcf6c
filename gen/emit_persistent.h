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
  uint32_t group_smem;   /* dynamic shared memory per pseudo-block: the largest command's, 16-byte multiple */
  uint32_t shared_bytes; /* per hardware block: groups x group_smem */
  /* per command (in p->commands order): its workspace on this kernel's
   * virtual grid and the threads per pseudo-block its body works with */
  gg_persistent_command cmd[GGI_MAX_COMMANDS];
} ggi_persistent_shape;

/* The plan of a persistent kernel for one target: check p against the
 * target's limits and every command's needs, and compute its shape.
 * Returns 0, or -1 with d->msg = "file:line: ...". */
int ggi_persistent_shape_of(const ggi_module *m, const ggi_persistent *p, unsigned target,
                            ggi_persistent_shape *s, ggi_diag *d);

/* The plan the descriptor carries: p checked for every target it has
 * (any failure is the error), and the shape for the target its
 * descriptor describes (cuda when it has cuda, else hip).  emit's
 * descriptor, `explain` and `list` read this one; nothing recomputes it. */
int ggi_persistent_plan(const ggi_module *m, const ggi_persistent *p, ggi_persistent_shape *s,
                        ggi_diag *d);

#endif
