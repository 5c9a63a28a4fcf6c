/* specialize.h - make the choices `auto` leaves open, and record why. */
#ifndef GGI_SPECIALIZE_H
#define GGI_SPECIALIZE_H

#include "ir.h"

/* Fills every kernel's spec, then runs the plan stage (plan.h:
 * ggi_plan_module), so that every kernel and persistent kernel has its
 * stored plan.  Returns 0, or -1 with d->msg set. */
int ggi_specialize(ggi_module *m, ggi_diag *d);

#endif
