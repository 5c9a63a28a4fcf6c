/*
 * gemm_plan.c - the plan of a gemm kernel (plan.h): the cuBLASDx block
 * GEMM it instantiates (sizes, precisions, arrangements, BlockDim), the
 * shared memory that holds A, B and C, and the grid: one block per batch
 * item (league = batch), striding over the batch on any virtual grid.
 *
 * The template only spells these out; a static_assert in it checks that
 * cuBLASDx agrees with the shared memory computed here.
 */
#include <stdio.h>
#include <string.h>

#include "plan.h"

/* cuBLASDx slices shared memory into A, B, C, each start aligned to the
 * description's Alignment (16 bytes here, the most it takes). */
#define GEMM_SMEM_ALIGN 16u

static uint64_t aligned_bytes(uint64_t elems, gg_dtype t)
{
  uint64_t b = elems * ggi_dtype_size(t);
  return (b + GEMM_SMEM_ALIGN - 1) / GEMM_SMEM_ALIGN * GEMM_SMEM_ALIGN;
}

static const ggi_param *view(const ggi_kernel *k, int which)
{
  for (int i = 0; i < k->nparams; i++)
    if (strcmp(k->params[i].name, k->gemm_view[which]) == 0) return &k->params[i];
  return NULL;
}

static int add_key(ggi_plan *p, ggi_arena *a, const char *key, const char *fmt, long long v)
{
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  if (p->nvars >= GGI_PLAN_MAX_VARS) return -1;
  p->keys[p->nvars] = key;
  p->values[p->nvars++] = ggi_strdup(a, buf);
  return p->values[p->nvars - 1] ? 0 : -1;
}

static int add_str(ggi_plan *p, const char *key, const char *value)
{
  if (p->nvars >= GGI_PLAN_MAX_VARS || !value) return -1;
  p->keys[p->nvars] = key;
  p->values[p->nvars++] = value;
  return 0;
}

int ggi_gemm_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  const ggi_param *va = view(k, 0), *vb = view(k, 1), *vc = view(k, 2);
  if (!va || !vb || !vc) return ggi_fail(d, "gemm views missing (a gpugen bug)");
  if (target != GGI_TARGET_CUDA) return ggi_fail(d, "pattern \"gemm\" is CUDA only (cuBLASDx)");
  const int m = k->gemm_size[0], n = k->gemm_size[1], kk = k->gemm_size[2];
  uint64_t smem = aligned_bytes((uint64_t)m * kk, va->dtype) +
                  aligned_bytes((uint64_t)kk * n, vb->dtype) +
                  aligned_bytes((uint64_t)m * n, vc->dtype);
  if (smem > ggi_shared_limit(target))
    return ggi_fail(d, "A (%d x %d), B (%d x %d) and C (%d x %d) need %llu bytes of shared memory; "
                    "a CUDA block holds at most %u: use smaller sizes (split the product into "
                    "several gemm kernels)", m, kk, kk, n, m, n, (unsigned long long)smem,
                    (unsigned)ggi_shared_limit(target));
  p->template_path = "common/gemm.cuh";
  p->grid_rule = GG_GRID_LEAGUE; /* one block per batch item */
  p->shared_bytes = (uint32_t)smem;
  /* cuBLASDx's BlockDim is the block: exactly that many threads, the
     whole hardware block (it synchronizes with __syncthreads) */
  p->min_threads = p->max_threads = k->spec.block;
  p->whole_block = 1;
  p->features |= GG_FEAT_MATHDX;
  /* row-major views: op "n" reads A (M x K) row-major; op "t" reads the
     stored K x M row-major matrix as M x K column-major (same for B) */
  int rc = 0;
  rc |= add_key(p, a, "GEMM_M", "%lld", m);
  rc |= add_key(p, a, "GEMM_N", "%lld", n);
  rc |= add_key(p, a, "GEMM_K", "%lld", kk);
  rc |= add_key(p, a, "GEMM_SMEM", "%lldu", (long long)smem);
  rc |= add_str(p, "GEMM_TA", ggi_dtype_ctype(va->dtype));
  rc |= add_str(p, "GEMM_TC", ggi_dtype_ctype(vc->dtype));
  rc |= add_str(p, "GEMM_ARR_A", k->gemm_trans[0] ? "cublasdx::col_major" : "cublasdx::row_major");
  rc |= add_str(p, "GEMM_ARR_B", k->gemm_trans[1] ? "cublasdx::col_major" : "cublasdx::row_major");
  rc |= add_str(p, "GEMM_A", va->name);
  rc |= add_str(p, "GEMM_B", vb->name);
  rc |= add_str(p, "GEMM_C", vc->name);
  rc |= add_str(p, "GEMM_ALPHA", k->gemm_scale[0]);
  rc |= add_str(p, "GEMM_BETA", k->gemm_scale[1]);
  if (rc) return ggi_fail(d, "out of memory");
  return 0;
}
