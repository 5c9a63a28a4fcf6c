/*
 * exchange_plan.c - the patterns of a frame's exchange stages, the
 * kernels the loader (load_exchange.c) makes for
 *   { exchange = "allreduce", view = "e", op = "sum" }   (allreduce)
 *   { exchange = "broadcast", view = "w", root = 0 }    (broadcast)
 *   { exchange = "allgather", view = "g" }              (allgather)
 *   { exchange = "alltoall", view = "a" }               (alltoall)
 *   { exchange = "halo", view = "x", width = 1 }        (halo)
 * Their specialization, their plans, the area of the frame's symmetric
 * workspace each takes, and what `explain` says.  The device code is
 * templates/common/allreduce.cuh, gather.cuh (broadcast, allgather),
 * alltoall.cuh and halo.cuh.
 */
#include <stdio.h>

#include "patterns.h"
#include "plan.h"
#include "vocab.h"

/* Every exchange: one warp's worth of threads a pseudo-block at least,
 * one item each; why, for explain. */
static int spec_exchange(ggi_kernel *k, const char *why)
{
  k->spec.block = 32;
  k->spec.items = k->spec.vector = 1;
  k->spec.why[k->spec.n_why++] = why;
  return 0;
}

int ggi_spec_allreduce(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)m;
  (void)d;
  return spec_exchange(k,
    "the view is cut in chunks, each a pseudo-block's on every GPU: it stores the chunk into "
    "every peer (NVLink) or puts it (elsewhere), each word with the run's flag beside it, "
    "and each thread waits for its own elements' flags and combines them; the pseudo-blocks "
    "without a chunk go on to the grid barrier after the stage");
}

/* Bytes of a slot of the buffers: the view with its flags. */
static uint64_t slot_bytes(const ggi_kernel *k)
{
  return (uint64_t)k->range[0].value * ggi_dtype_size(k->params[0].dtype) * GG_XCHG_LL_FACTOR;
}

/* A stage's area, rounded up to where the next stage's may start. */
static uint64_t area_bytes(uint64_t bytes)
{
  return (bytes + GG_FRAME_WS_ALIGN - 1) / GG_FRAME_WS_ALIGN * GG_FRAME_WS_ALIGN;
}

/* An allreduce's area: the runs words, then two buffers of a slot per GPU. */
uint64_t ggi_allreduce_sym_bytes(const ggi_kernel *k)
{
  return area_bytes(GG_XCHG_BUFS_OFF + 2 * (uint64_t)k->gpus * slot_bytes(k));
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

/* What every exchange's plan says: its template, a grid of resident
 * blocks, NVSHMEM, and the view's type, size, chunks and GPUs. */
static int plan_common(const ggi_kernel *k, unsigned target, const char *template_path,
                       ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  if (target != GGI_TARGET_CUDA)
    return ggi_fail(d, "an exchange runs on CUDA only (NVSHMEM)");
  p->template_path = template_path;
  p->grid_rule = GG_GRID_RESIDENT;
  p->features = GG_FEAT_NVSHMEM;
  char v[4][32];
  snprintf(v[0], sizeof v[0], "%lldLL", (long long)k->range[0].value);
  snprintf(v[1], sizeof v[1], "%lldLL", chunks(k));
  snprintf(v[2], sizeof v[2], "%lldLL", chunk_items(k));
  snprintf(v[3], sizeof v[3], "%d", k->gpus);
  int rc = ggi_plan_set(p, a, "XCHG_T", ggi_dtype_ctype(k->params[0].dtype));
  rc |= ggi_plan_set(p, a, "XCHG_COUNT", v[0]);
  rc |= ggi_plan_set(p, a, "XCHG_CHUNKS", v[1]);
  rc |= ggi_plan_set(p, a, "XCHG_CHUNK_ITEMS", v[2]);
  rc |= ggi_plan_set(p, a, "XCHG_GPUS", v[3]);
  rc |= ggi_plan_set(p, a, "VIEW", k->params[0].name);
  /* the stage's area of the symmetric workspace, as the frame lays it
     out (the row's sym_bytes): the template asserts its layout fits */
  char area[32];
  snprintf(area, sizeof area, "%lluull",
           (unsigned long long)ggi_pattern_of(k->pattern)->sym_bytes(k));
  rc |= ggi_plan_set(p, a, "XCHG_AREA", area);
  return rc ? ggi_fail(d, "out of memory") : 0;
}

int ggi_plan_allreduce(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                       ggi_diag *d)
{
  if (plan_common(k, target, "common/allreduce.cuh", a, p, d))
    return -1;
  int rc = ggi_plan_set(p, a, "XCHG_OP", ggi_op_name(k->op));
  rc |= ggi_plan_set(p, a, "XCHG_COMBINE", combine(k->op));
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

/* ---- broadcast and allgather: each element has one owner ----
 * GPU q owns elements [part_lo(q), part_hi(q)): a broadcast's root owns
 * them all; an allgather cuts the outer index in N runs of rows, GPU q's
 * rows q E / N .. (q + 1) E / N - 1 (E rows; integer division: the parts
 * differ by one row at most when N does not divide E, and a GPU owns none
 * when E < N). */

/* The rows of the view's outer index (ggi_outer_dim): parts and blocks
 * are runs of it. */
static long long rows_of(const ggi_kernel *k)
{
  const ggi_param *v = &k->params[0];
  if (v->rank == 0) return 1;
  return (long long)v->ext[ggi_outer_dim(v)].value;
}

/* Where the acknowledgement words start in the stage's area: after the
 * runs words and the two buffers of the view with its flags.  One word
 * per chunk and GPU: acks[c * N + q] holds the last run of chunk c that
 * GPU q has read from this GPU. */
static uint64_t gather_acks_off(const ggi_kernel *k)
{
  return GG_XCHG_BUFS_OFF + 2 * slot_bytes(k);
}

uint64_t ggi_gather_sym_bytes(const ggi_kernel *k)
{
  return area_bytes(gather_acks_off(k) + 8u * (uint64_t)chunks(k) * (uint64_t)k->gpus);
}

int ggi_spec_gather(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)m;
  (void)d;
  return spec_exchange(k,
    "the view is cut in chunks, each a pseudo-block's on every GPU: it stores the elements it "
    "owns into every peer (NVLink) or puts them (elsewhere), each word with the run's flag "
    "beside it; each thread waits for the flags of the elements others own; each chunk read "
    "is acknowledged to its owner, who waits for that before it writes the same buffer again");
}

int ggi_plan_gather(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                    ggi_diag *d)
{
  if (plan_common(k, target, "common/gather.cuh", a, p, d))
    return -1;
  const long long count = (long long)k->range[0].value, rows = rows_of(k);
  char acks[32], lo[160], hi[160], owner[160];
  snprintf(acks, sizeof acks, "%lluull", (unsigned long long)gather_acks_off(k));
  if (k->pattern == GG_PATTERN_BROADCAST) {
    snprintf(lo, sizeof lo, "q == %d ? 0LL : %lldLL", k->root, count);
    snprintf(hi, sizeof hi, "%lldLL", count);
    snprintf(owner, sizeof owner, "%d", k->root);
  } else { /* row r's owner: the q with q E / N <= r < (q + 1) E / N */
    snprintf(owner, sizeof owner, "(int)(((j / %lldLL + 1) * %d - 1) / %lldLL)", count / rows,
             k->gpus, rows);
    snprintf(lo, sizeof lo, "(long long)q * %lldLL / %d * %lldLL", rows, k->gpus, count / rows);
    snprintf(hi, sizeof hi, "(long long)(q + 1) * %lldLL / %d * %lldLL", rows, k->gpus,
             count / rows);
  }
  int rc = ggi_plan_set(p, a, "XCHG_KIND", ggi_pattern_name(k->pattern));
  rc |= ggi_plan_set(p, a, "XCHG_ACKS_OFF", acks);
  rc |= ggi_plan_set(p, a, "XCHG_PART_LO", lo);
  rc |= ggi_plan_set(p, a, "XCHG_PART_HI", hi);
  rc |= ggi_plan_set(p, a, "XCHG_OWNER", owner);
  return rc ? ggi_fail(d, "out of memory") : 0;
}

void ggi_gather_explain(const ggi_kernel *k, FILE *out)
{
  const unsigned size = ggi_dtype_size(k->params[0].dtype);
  const long long count = (long long)k->range[0].value, rows = rows_of(k);
  if (k->pattern == GG_PATTERN_BROADCAST)
    fprintf(out, "      broadcast of %s from GPU %d across %d GPUs: GPU %d moves %lld "
                 "element(s), %lld bytes (%lld with their flags), to each of the %d other GPU(s)",
            k->params[0].name, k->root, k->gpus, k->root, count, count * size,
            count * size * GG_XCHG_LL_FACTOR, k->gpus - 1);
  else
    fprintf(out, "      allgather of %s across %d GPUs: GPU q's part is rows %lld q / %d .. "
                 "%lld (q + 1) / %d - 1 of its outer index, rounded down (%lld to %lld rows of "
                 "%lld element(s)); each GPU moves its part, %lld bytes a row with the flags, to "
                 "each of the %d other GPU(s)",
            k->params[0].name, k->gpus, rows, k->gpus, rows, k->gpus, rows / k->gpus,
            (rows + k->gpus - 1) / k->gpus, count / rows,
            count / rows * size * GG_XCHG_LL_FACTOR, k->gpus - 1);
  fprintf(out, " in %lld chunk(s) of at most %u bytes, each a pseudo-block's; each thread waits "
               "for the flags of the elements other GPUs own, and each chunk read is "
               "acknowledged to its owner; symmetric memory %llu bytes\n",
          chunks(k), GG_XCHG_CHUNK_BYTES, (unsigned long long)ggi_gather_sym_bytes(k));
}

/* ---- alltoall: block q of GPU p becomes block p of GPU q ----
 * The outer index in N equal blocks (the loader checked N divides it).
 * The same area as broadcast's and allgather's: the receive buffers,
 * and an acknowledgement word per chunk and GPU. */

int ggi_spec_alltoall(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)m;
  (void)d;
  return spec_exchange(k,
    "the view is cut in chunks, each a pseudo-block's on every GPU: it stores each element of "
    "block q straight into block p of GPU q's buffer (NVLink), flagged with the run, then waits "
    "for the flags of the elements the others sent it and copies them into the view; each "
    "chunk read is acknowledged to the GPU it came from");
}

int ggi_plan_alltoall(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                      ggi_diag *d)
{
  if (plan_common(k, target, "common/alltoall.cuh", a, p, d))
    return -1;
  char acks[32], block[32];
  snprintf(acks, sizeof acks, "%lluull", (unsigned long long)gather_acks_off(k));
  snprintf(block, sizeof block, "%lldLL", (long long)k->range[0].value / k->gpus);
  int rc = ggi_plan_set(p, a, "XCHG_ACKS_OFF", acks);
  rc |= ggi_plan_set(p, a, "XCHG_BLOCK", block);
  return rc ? ggi_fail(d, "out of memory") : 0;
}

void ggi_alltoall_explain(const ggi_kernel *k, FILE *out)
{
  const unsigned size = ggi_dtype_size(k->params[0].dtype);
  const long long count = (long long)k->range[0].value, rows = rows_of(k);
  fprintf(out, "      alltoall of %s across %d GPUs: %d blocks of %lld rows of its outer index "
               "(%lld element(s) each); block q of GPU p becomes block p of GPU q: each GPU "
               "moves %lld bytes (%lld with the flags) to each of the %d other GPU(s) in %lld "
               "chunk(s) of at most %u bytes, each a pseudo-block's; each thread waits for the "
               "flags of the elements sent to it, and each chunk read is acknowledged to the GPU "
               "it came from; symmetric memory %llu bytes\n",
          k->params[0].name, k->gpus, k->gpus, rows / k->gpus, count / k->gpus,
          count / k->gpus * size, count / k->gpus * size * GG_XCHG_LL_FACTOR, k->gpus - 1,
          chunks(k), GG_XCHG_CHUNK_BYTES, (unsigned long long)ggi_gather_sym_bytes(k));
}

/* ---- halo: the ghost rows at each end of a GPU's part ----
 * The view's outer index has E rows (a constant or a run-time extent): w
 * ghost rows at each end (0 .. w - 1 and E - w .. E - 1) and the GPU's
 * own rows between.  GPU q's rows E - 2w .. E - w - 1 go to GPU q + 1's
 * rows 0 .. w - 1 (side 0, rightwards), its rows w .. 2w - 1 to GPU
 * q - 1's rows E - w .. E - 1 (side 1, leftwards); with wrap, GPU N - 1
 * and GPU 0 are neighbours too.  The kernel's range is S = w rows of
 * elements, what travels each way. */

/* Elements of one row of the outer index. */
static long long halo_row_items(const ggi_kernel *k)
{
  return (long long)k->range[0].value / k->width;
}

/* The area: the runs words (a chunk of each side: 2 x chunks), then for
 * each run parity and side a receive slot (the neighbour stores into it)
 * and a staging slot (what a put to a neighbour NVSHMEM cannot map reads
 * from), each S elements with their flags. */
uint64_t ggi_halo_sym_bytes(const ggi_kernel *k)
{
  return area_bytes(GG_XCHG_BUFS_OFF + 8 * slot_bytes(k));
}

int ggi_spec_halo(ggi_module *m, ggi_kernel *k, ggi_diag *d)
{
  (void)m;
  (void)d;
  return spec_exchange(k,
    "each side's w rows are cut in chunks, each a pseudo-block's on every GPU: it stores its "
    "edge rows' chunk straight into the neighbour's receive slot (NVLink), each word with the "
    "run's flag beside it, then waits for the flags of the chunk its other neighbour sent and "
    "copies it into its ghost rows; the pairs of neighbours exchange both ways, so no "
    "acknowledgement is needed");
}

int ggi_plan_halo(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  if (plan_common(k, target, "common/halo.cuh", a, p, d))
    return -1;
  const ggi_param *v = &k->params[0];
  const ggi_extent e = v->ext[ggi_outer_dim(v)];
  char rows[160], row[32], width[32];
  if (e.name)
    snprintf(rows, sizeof rows, "(long long)args.%s", e.name);
  else
    snprintf(rows, sizeof rows, "%lldLL", (long long)e.value);
  snprintf(row, sizeof row, "%lldLL", halo_row_items(k));
  snprintf(width, sizeof width, "%dLL", k->width);
  int rc = ggi_plan_set(p, a, "XCHG_ROWS", rows);
  rc |= ggi_plan_set(p, a, "XCHG_ROW_ITEMS", row);
  rc |= ggi_plan_set(p, a, "XCHG_WIDTH", width);
  rc |= ggi_plan_set(p, a, "XCHG_WRAP", k->wrap ? "true" : "false");
  return rc ? ggi_fail(d, "out of memory") : 0;
}

void ggi_halo_explain(const ggi_kernel *k, FILE *out)
{
  const unsigned size = ggi_dtype_size(k->params[0].dtype);
  const long long count = (long long)k->range[0].value;
  const int w = k->width;
  const ggi_param *v = &k->params[0];
  const ggi_extent e = v->ext[ggi_outer_dim(v)];
  char rows[80];
  if (e.name)
    snprintf(rows, sizeof rows, "%s (at run time)", e.name);
  else
    snprintf(rows, sizeof rows, "%lld", (long long)e.value);
  fprintf(out, "      halo of %s across %d GPUs, width %d: its outer index has E = %s rows, ghost "
               "rows 0..%d and E-%d..E-1 at its ends; GPU q's rows E-%d..E-%d go to GPU q+1's "
               "rows 0..%d, its rows %d..%d to GPU q-1's rows E-%d..E-1%s; each GPU moves %lld "
               "element(s) (%lld row(s) of %lld), %lld bytes (%lld with their flags), to each "
               "neighbour in %lld chunk(s) a side of at most %u bytes, each a pseudo-block's; "
               "each thread waits for the flags of the elements its neighbour sent; symmetric "
               "memory %llu bytes\n",
          v->name, k->gpus, w, rows, w - 1, w, 2 * w, w + 1, w - 1, w, 2 * w - 1, w,
          k->wrap ? " (wrap: GPU 0 and GPU N-1 are neighbours too)"
                  : " (GPU 0's first ghost rows and GPU N-1's last are left as they are)",
          count, (long long)w, halo_row_items(k), count * size, count * size * GG_XCHG_LL_FACTOR,
          chunks(k), GG_XCHG_CHUNK_BYTES, (unsigned long long)ggi_halo_sym_bytes(k));
}
