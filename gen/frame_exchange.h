/* frame_exchange.h - the halo exchange (frame_exchange.c), which
 * frame_schedule.c runs after placing the barriers. */
#ifndef GGI_FRAME_EXCHANGE_H
#define GGI_FRAME_EXCHANGE_H

#include "frame.h"

/* After the barriers: which halo reads come from publications, the
 * publications' slots, and which neighbour waits become HALO (or
 * ORDERED) stages.  fence_of[s]: the first stage s may depend on without
 * a barrier of its own (s itself when it has one).  Returns 0, or -1
 * with d->msg set. */
int ggi_frame_exchange(const ggi_module *m, ggi_kernel *fr, const int *fence_of, ggi_diag *d);

#endif
