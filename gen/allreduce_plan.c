/*
 * allreduce_plan.c - pattern allreduce: the kernel of a frame's
 * { exchange = "allreduce", view = "e", op = "sum" } stage, made by the
 * loader (load_exchange.c).  Its specialization, its plan and the area
 * of the frame's symmetric workspace it takes; the device code is
 * templates/common/allreduce.cuh.
 */
#include <stdio.h>

#include "patterns.h"
#include "plan.h"
#include "vocab.h"

int ggi_spec_allreduce(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)m;
  (void)d;
  k->spec.block = 32;
  k->spec.items = k->spec.vector = 1;
  k->spec.why[k->spec.n_why++] =
    "the view is cut in chunks, each a pseudo-block's on every GPU: it stores the chunk into "
    "every peer (NVLink) or puts it (elsewhere), each word with the run's flag beside it, "
    "and each thread waits for its own elements' flags and combines them; the pseudo-blocks "
    "without a chunk go on to the grid barrier after the stage";
  return 0;
}

/* Bytes of one of the two buffers: a slot of the view, with its flags,
 * per GPU. */
static uint64_t buffer_bytes(const ggi_kernel *k)
{
  return (uint64_t)k->gpus * (uint64_t)k->range[0].value * ggi_dtype_size(k->params[0].dtype) *
         GG_XCHG_LL_FACTOR;
}

uint64_t ggi_allreduce_sym_bytes(const ggi_kernel *k)
{
  const uint64_t bytes = GG_XCHG_BUFS_OFF + 2 * buffer_bytes(k);
  return (bytes + GG_FRAME_WS_ALIGN - 1) / GG_FRAME_WS_ALIGN * GG_FRAME_WS_ALIGN;
}

/* The chunks of a view's put (gg_abi.h: GG_XCHG_CHUNK_BYTES), and the
 * elements in each but the last. */
static long long chunk_items(const ggi_kernel *k)
{
  const long long per = GG_XCHG_CHUNK_BYTES / ggi_dtype_size(k->params[0].dtype);
  return per < k->range[0].value ? per : (long long)k->range[0].value;
}
static long long chunks(const ggi_kernel *k)
{
  return ((long long)k->range[0].value + chunk_items(k) - 1) / chunk_items(k);
}

/* How two values combine, a the running one (the lower GPUs'), b the next
 * GPU's. */
static const char *combine(ggi_op op)
{
  return op == GGI_OP_MIN ? "b < a ? b : a" : op == GGI_OP_MAX ? "b > a ? b : a" : "a + b";
}

int ggi_plan_allreduce(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                       ggi_diag *d)
{
  if (target != GGI_TARGET_CUDA)
    return ggi_fail(d, "an exchange runs on CUDA only (NVSHMEM)");
  p->template_path = "common/allreduce.cuh";
  p->grid_rule = GG_GRID_RESIDENT;
  p->features = GG_FEAT_NVSHMEM;
  char count[32], gpus[16], nchunks[32], per[32];
  snprintf(count, sizeof count, "%lldLL", (long long)k->range[0].value);
  snprintf(nchunks, sizeof nchunks, "%lldLL", chunks(k));
  snprintf(per, sizeof per, "%lldLL", chunk_items(k));
  snprintf(gpus, sizeof gpus, "%d", k->gpus);
  int rc = ggi_plan_set(p, a, "XCHG_OP", ggi_op_name(k->op));
  rc |= ggi_plan_set(p, a, "XCHG_T", ggi_dtype_ctype(k->params[0].dtype));
  rc |= ggi_plan_set(p, a, "XCHG_COUNT", count);
  rc |= ggi_plan_set(p, a, "XCHG_GPUS", gpus);
  rc |= ggi_plan_set(p, a, "XCHG_CHUNKS", nchunks);
  rc |= ggi_plan_set(p, a, "XCHG_CHUNK_ITEMS", per);
  rc |= ggi_plan_set(p, a, "XCHG_COMBINE", combine(k->op));
  rc |= ggi_plan_set(p, a, "VIEW", k->params[0].name);
  return rc ? ggi_fail(d, "out of memory") : 0;
}

void ggi_allreduce_explain(const ggi_kernel *k, FILE *out)
{
  const unsigned size = ggi_dtype_size(k->params[0].dtype);
  const long long count = (long long)k->range[0].value;
  fprintf(out, "      allreduce (%s) of %s across %d GPUs: moves %lld element(s), %lld bytes "
               "(%u with their flags), to each of the %d peers in %lld chunk(s) of at most %u "
               "bytes, each a pseudo-block's; each thread waits for its elements' flags from "
               "the %d peer(s), then combines GPU 0's to GPU %d's values in that order, the "
               "same bits on every GPU; symmetric memory %llu bytes\n",
          ggi_op_name(k->op), k->params[0].name, k->gpus, count, count * size,
          (unsigned)(count * size * GG_XCHG_LL_FACTOR), k->gpus - 1, chunks(k),
          GG_XCHG_CHUNK_BYTES, k->gpus - 1, k->gpus - 1,
          (unsigned long long)ggi_allreduce_sym_bytes(k));
}
