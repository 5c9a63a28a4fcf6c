/*
 * variants.h - tile = "auto" on a gemm kernel (variants.c): a kernel per
 * other candidate tile, and a frame per variant of a stage, added to the
 * module and to every persistent kernel that runs the gemm or the frame,
 * for gg_session_tune to measure.  Called first by
 * ggi_specialize, before any kernel is planned.
 */
#ifndef GGI_VARIANTS_H
#define GGI_VARIANTS_H

#include "ir.h"

/* 0, or -1 with d->msg (file:line: what is wrong) */
int ggi_expand_variants(ggi_module *m, ggi_diag *d);

/* block = "auto" on an fft (variants.c), after every kernel is planned:
 * each frame with such stages gets a variant for each of their other
 * thread counts that its stages' plans allow ("<frame>_threads<t>"), and
 * each persistent kernel with such commands a variant on t threads
 * ("<persistent>_threads<t>", marked variant_of) holding their variants.
 * Returns 1 when it added any (the caller specializes and plans again),
 * 0 when none, -1 with d->msg. */
int ggi_expand_thread_variants(ggi_module *m, ggi_diag *d);

/* The first of ks[from .. nk) that is a variant of ks[base] (variant_of
 * base + 1), or -1: for (v = ggi_next_variant(ks, nk, b, 0); v >= 0;
 * v = ggi_next_variant(ks, nk, b, v + 1)) walks them in order. */
int ggi_next_variant(const ggi_kernel *ks, int nk, int base, int from);

#endif
