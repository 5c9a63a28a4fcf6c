/*
 * variants.h - tile = "auto" on a gemm kernel (variants.c): a kernel per
 * other candidate tile, added to the module and to every persistent kernel
 * that runs the gemm, for gg_session_tune to measure.  Called first by
 * ggi_specialize, before any kernel is planned.
 */
#ifndef GGI_VARIANTS_H
#define GGI_VARIANTS_H

#include "ir.h"

/* 0, or -1 with d->msg (file:line: what is wrong) */
int ggi_expand_variants(ggi_module *m, ggi_diag *d);

#endif
