/* plan_by_hand.h - hand-made modules (built in C, not loaded) skip
 * ggi_specialize and so the plan stage: give their kernels an empty plan
 * (no shared memory, no workspace, no thread bounds) and their persistent
 * kernels the shape the stage would store. */
#ifndef PLAN_BY_HAND_H
#define PLAN_BY_HAND_H

#include <stdint.h>
#include <string.h>

#include "plan.h"

#define PLAN_BY_HAND_MAX 64

/* arg_bytes[i]: the size of kernel i's argument struct as the hand-made
 * source declares it (the mailbox slot and the ring's batch follow it);
 * NULL: 0 for every kernel. */
static inline void plan_kernels_by_hand(ggi_module *m, unsigned targets, const uint32_t *arg_bytes)
{
  static ggi_plan plans[PLAN_BY_HAND_MAX];
  for (int i = 0; i < m->nkernels && i < PLAN_BY_HAND_MAX; i++) {
    memset(&plans[i], 0, sizeof plans[i]);
    plans[i].args.size = arg_bytes ? arg_bytes[i] : 0;
    m->kernels[i].targets |= targets;
    m->kernels[i].plan[0] = m->kernels[i].plan[1] = &plans[i];
  }
}

/* shapes: 2 per persistent kernel (cuda, hip), owned by the caller.
 * 0, or -1 with d->msg. */
static inline int plan_by_hand(ggi_module *m, unsigned targets, const uint32_t *arg_bytes,
                               ggi_persistent_shape *shapes, ggi_diag *d)
{
  plan_kernels_by_hand(m, targets, arg_bytes);
  for (int i = 0; i < m->npersistent; i++) {
    ggi_persistent *p = &m->persistent[i];
    if (!p->targets) p->targets = targets;
    for (int t = 0; t < 2; t++) {
      unsigned target = t ? GGI_TARGET_HIP : GGI_TARGET_CUDA;
      if (!(p->targets & target)) continue;
      if (ggi_persistent_shape_of(m, p, target, &shapes[2 * i + t], d) != 0) return -1;
      p->shape[t] = &shapes[2 * i + t];
    }
  }
  return 0;
}

#endif
