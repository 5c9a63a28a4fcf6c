/*
 * handmade.h - a persistent module written by hand in the generator's
 * conventions (args structs, GG_NS_<name>::gg_body on the virtual grid, a
 * __global__ wrapper per kernel), with its persistent kernels rendered by
 * the real ggi_emit_persistent() from the real templates.  Used by the
 * GPU tests of the persistent protocol.
 */
#ifndef GG_TEST_HANDMADE_H
#define GG_TEST_HANDMADE_H

#include <stdint.h>

#include "gg_module.h"

/* Kernels (index into gg_module_desc.kernels) and their argument structs,
 * laid out as the kernel ABI says (params, then extents). */
enum {
  HM_EMPTY, HM_AXPB, HM_PSUM, HM_REV, HM_SPIN, HM_TRAP, HM_NKERNELS
};
typedef struct { int32_t unused; } hm_empty_args;
typedef struct { const float *x; float *y; float a, b; int64_t n; } hm_axpb_args;
/* part[b] = sum of x[i] over the i that virtual block b visits:
 * i = (k * nblocks + b) * nthreads + t. */
typedef struct { const int32_t *x; int64_t *part; int64_t n; } hm_psum_args;
typedef struct { const int32_t *x; int32_t *y; int64_t n; } hm_rev_args;
typedef struct { const int32_t *flag; } hm_spin_args;

/* One persistent kernel of the module. */
typedef struct hm_persistent {
  const char *name;
  gg_persistent_layout layout;
  int block, blocks, groups;
  int ncommands;
  int commands[4];
} hm_persistent;

/* "axpb", ... for a HM_* kernel. */
const char *hm_kernel_name(int kernel);

/* Build the module: CUDA source (prelude + bodies + rendered persistent
 * kernels) and descriptors, all malloc'ed and kept for the process.
 * Returns NULL with err set on failure. */
const gg_module_desc *hm_module(const hm_persistent *pers, int npers, char *err, size_t errlen);
/* Free what hm_module allocated (after every gg_module using it is freed). */
void hm_module_free(const gg_module_desc *md);

#endif
