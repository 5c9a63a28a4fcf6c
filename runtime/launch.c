/*
 * launch.c - packing arguments and dispatching (classic and cooperative).
 *
 * The hot path is gg_launch: pack into a stack buffer, compute the grid
 * from the descriptor's rule, one driver call.  No allocation, no lock, no
 * synchronization.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static uint32_t dtype_size(gg_dtype t) {
  switch (t) {
  case GG_I32: case GG_U32: case GG_F32: return 4;
  case GG_I64: case GG_U64: case GG_F64: case GG_PTR: return 8;
  case GG_F16: case GG_BF16: return 2;
  default: return 0;
  }
}

static int64_t read_i64(const void *buf, uint32_t off) {
  int64_t v;
  memcpy(&v, (const char *)buf + off, sizeof v);
  return v;
}

/* The value of an extent: a constant or the packed run-time parameter. */
static int extent_value(const gg_kernel_desc *kd, const void *buf, gg_extent_desc e, int64_t *v) {
  if (e.param < 0) {
    *v = e.value;
    return 0;
  }
  if (e.param >= kd->nparams || kd->params[e.param].kind != GG_PARAM_EXTENT) return -1;
  *v = read_i64(buf, kd->params[e.param].offset);
  return 0;
}

#define FAIL(...) (ggr_format(err, err_size, __VA_ARGS__), GG_ERR_INVALID)

static const char *nm(const char *s) { return s ? s : "?"; }

static gg_status pack_one(const gg_param_desc *p, const gg_arg *a, char *buf, char *err,
                          size_t err_size) {
  switch (p->kind) {
  case GG_PARAM_VIEW: {
    if (!a->is_array || !a->v.array)
      return FAIL("parameter %s is a view: pass gg_arg_array()", nm(p->name));
    if (a->v.array->space == GG_SPACE_HOST)
      return FAIL("parameter %s: a host array is not visible to kernels; copy it to a device "
                  "array or allocate it mapped", nm(p->name));
    uint64_t d = a->v.array->dptr;
    memcpy(buf + p->offset, &d, sizeof d);
    return GG_OK;
  }
  case GG_PARAM_SCALAR:
  case GG_PARAM_EXTENT:
  case GG_PARAM_STRIDE:
    if (a->is_array) return FAIL("parameter %s is a value, not an array", nm(p->name));
    if (p->kind == GG_PARAM_EXTENT && a->v.i64 < 0)
      return FAIL("parameter %s: extent %lld is negative", nm(p->name), (long long)a->v.i64);
    /* a stride of 0 would make distinct indices alias one element */
    if (p->kind == GG_PARAM_STRIDE && a->v.i64 < 1)
      return FAIL("parameter %s: stride %lld (strides are element counts >= 1)", nm(p->name),
                  (long long)a->v.i64);
    /* gg_arg keeps every value in the low bytes of a 64-bit union (x86-64,
     * little endian), so copying the field's size takes the right value */
    memcpy(buf + p->offset, &a->v, p->size);
    return GG_OK;
  default:
    return FAIL("parameter %s: unknown kind %d", nm(p->name), (int)p->kind);
  }
}

/* The elements a view spans: the product of its extents, or for layout
 * stride the largest index sum((e - 1) * s) plus one (0 when an extent is
 * 0).  Strides are the stride params in order, `rank` per stride view
 * (docs/internals.md); *next_stride walks them. */
static gg_status view_elements(const gg_kernel_desc *kd, const gg_param_desc *p, const void *buf,
                               int *next_stride, uint64_t *elements, char *err,
                               size_t err_size) {
  int64_t e[3], st[3];
  int empty = 0;
  for (int r = 0; r < p->rank; r++) {
    if (extent_value(kd, buf, p->extents[r], &e[r]) || e[r] < 0)
      return FAIL("view %s: bad extent %d in the descriptor", nm(p->name), r);
    empty |= e[r] == 0;
  }
  if (p->layout == GG_LAYOUT_STRIDE)
    for (int r = 0; r < p->rank; r++) {
      while (*next_stride < kd->nparams && kd->params[*next_stride].kind != GG_PARAM_STRIDE)
        (*next_stride)++;
      if (*next_stride >= kd->nparams)
        return FAIL("descriptor of %s: view %s has no stride parameter for dimension %d",
                    nm(kd->name), nm(p->name), r);
      st[r] = read_i64(buf, kd->params[(*next_stride)++].offset);
    }
  if (empty) return *elements = 0, GG_OK;
  uint64_t n = 1, term; /* stride: 1 + the largest index; else the product */
  for (int r = 0; r < p->rank; r++) {
    int over = p->layout == GG_LAYOUT_STRIDE
                   ? __builtin_mul_overflow((uint64_t)(e[r] - 1), (uint64_t)st[r], &term) ||
                         __builtin_add_overflow(n, term, &n)
                   : __builtin_mul_overflow(n, (uint64_t)e[r], &n);
    if (over || n > (uint64_t)INT64_MAX)
      return FAIL("view %s: extents %lld x %lld x %lld%s overflow 64-bit indexing", nm(p->name),
                  (long long)e[0], (long long)(p->rank > 1 ? e[1] : 1),
                  (long long)(p->rank > 2 ? e[2] : 1),
                  p->layout == GG_LAYOUT_STRIDE ? " with their strides" : "");
  }
  *elements = n;
  return GG_OK;
}

/* Views must hold what their extents (and strides) say. */
static gg_status check_views(const gg_kernel_desc *kd, const gg_arg *args, const void *buf,
                             char *err, size_t err_size) {
  int next_stride = 0;
  for (int i = 0, j = 0; i < kd->nparams; i++) {
    const gg_param_desc *p = &kd->params[i];
    if (p->kind == GG_PARAM_HIDDEN) continue;
    const gg_arg *a = &args[j++];
    if (p->kind != GG_PARAM_VIEW) continue;
    uint64_t count, need;
    gg_status st = view_elements(kd, p, buf, &next_stride, &count, err, err_size);
    if (st) return st;
    if (__builtin_mul_overflow(count, (uint64_t)dtype_size(p->dtype), &need))
      return FAIL("view %s: %llu elements of %u bytes overflow a 64-bit size", nm(p->name),
                  (unsigned long long)count, dtype_size(p->dtype));
    if (need > a->v.array->bytes)
      return FAIL("view %s needs %llu bytes (%llu elements of %u bytes) but its array has %zu",
                  nm(p->name), (unsigned long long)need, (unsigned long long)count,
                  dtype_size(p->dtype), a->v.array->bytes);
  }
  return GG_OK;
}

/* tile_reduce: the output holds exactly one element per tile. */
static gg_status check_tiles(const gg_kernel_desc *kd, const void *buf, char *err,
                             size_t err_size) {
  if (kd->pattern != GG_PATTERN_TILE_REDUCE) return GG_OK;
  if (kd->tile < 1 || kd->into_param < 0 || kd->into_param >= kd->nparams || kd->rank != 1)
    return FAIL("descriptor of %s: tile_reduce without tile or output view", kd->name);
  const gg_param_desc *into = &kd->params[kd->into_param];
  int64_t n, nt;
  if (into->kind != GG_PARAM_VIEW || extent_value(kd, buf, kd->range[0], &n) ||
      extent_value(kd, buf, into->extents[0], &nt) || n < 0)
    return FAIL("descriptor of %s: bad range or output extent", kd->name);
  int64_t want = n / kd->tile + (n % kd->tile != 0);
  if (nt != want)
    return FAIL("%s: view %s has %lld elements, but %lld elements in tiles of %d make %lld "
                "tiles (one output each)", kd->name, into->name, (long long)nt, (long long)n,
                kd->tile, (long long)want);
  return GG_OK;
}

static gg_status check_layout(const gg_kernel_desc *kd, size_t buf_size, char *err,
                              size_t err_size) {
  if (kd->nparams < 0) return FAIL("descriptor of %s: %d params", nm(kd->name), kd->nparams);
  if (kd->args_size > buf_size) return FAIL("buffer of %zu bytes for a %u-byte argument struct",
                                            buf_size, kd->args_size);
  for (int i = 0; i < kd->nparams; i++) {
    const gg_param_desc *p = &kd->params[i];
    uint32_t want = p->kind == GG_PARAM_VIEW ? 8
                  : p->kind == GG_PARAM_EXTENT || p->kind == GG_PARAM_STRIDE ? 8
                  : p->kind == GG_PARAM_HIDDEN ? p->size
                  : dtype_size(p->dtype);
    if (p->size != want || p->size == 0 || p->size > 8 || p->offset > kd->args_size ||
        p->size > kd->args_size - p->offset)
      return FAIL("descriptor of %s: field %s (offset %u, size %u) does not fit its type or the "
                  "%u-byte struct", nm(kd->name), nm(p->name), p->offset, p->size,
                  kd->args_size);
    if (p->kind == GG_PARAM_VIEW &&
        (p->rank < 1 || p->rank > 3 || p->dtype == GG_PTR || dtype_size(p->dtype) == 0))
      return FAIL("descriptor of %s: view %s of rank %d and element type %d", nm(kd->name),
                  nm(p->name), p->rank, (int)p->dtype);
  }
  return GG_OK;
}

static gg_status pack_args(const gg_kernel_desc *kd, const gg_arg *args, int nargs, void *buf,
                           size_t buf_size, char *err, size_t err_size) {
  if (!kd || !buf || (nargs && !args) || (kd->nparams && !kd->params)) return FAIL("NULL argument");
  gg_status st = check_layout(kd, buf_size, err, err_size);
  if (st) return st;
  int visible = 0;
  for (int i = 0; i < kd->nparams; i++) visible += kd->params[i].kind != GG_PARAM_HIDDEN;
  if (nargs != visible)
    return FAIL("kernel %s takes %d arguments, %d given", nm(kd->name), visible, nargs);
  memset(buf, 0, kd->args_size); /* padding and hidden fields start at zero */
  for (int i = 0, j = 0; i < kd->nparams; i++) {
    if (kd->params[i].kind == GG_PARAM_HIDDEN) continue;
    if ((st = pack_one(&kd->params[i], &args[j++], buf, err, err_size))) return st;
  }
  if ((st = check_tiles(kd, buf, err, err_size))) return st;
  return check_views(kd, args, buf, err, err_size);
}

gg_status gg_pack_args(const gg_kernel_desc *kd, const gg_arg *args, int nargs, void *buf,
                       size_t buf_size) {
  char err[512];
  gg_status st = pack_args(kd, args, nargs, buf, buf_size, err, sizeof err);
  return st ? ggr_set_error(st, "%s: %s", kd ? nm(kd->name) : "gg_pack_args", err) : GG_OK;
}

gg_status ggr_pack_kernel_args(gg_kernel *k, const gg_arg *args, int nargs, void *buf,
                               size_t buf_size) {
  const gg_kernel_desc *kd = k->desc;
  gg_status st = gg_pack_args(kd, args, nargs, buf, buf_size);
  if (st) return st;
  for (int i = 0; i < kd->nparams; i++) {
    const gg_param_desc *p = &kd->params[i];
    if (p->kind != GG_PARAM_HIDDEN) continue;
    if (p->hidden == GG_HIDDEN_WORKSPACE && p->size == 8) {
      uint64_t ws = k->ws;
      memcpy((char *)buf + p->offset, &ws, 8);
    } else if (p->hidden == GG_HIDDEN_SEQ && p->size == 4) {
      /* 0 never appears: fresh flags are never 0.  Atomic: a graph
       * capture on another thread reads the counter. */
      unsigned seq = __atomic_add_fetch(&k->seq, 1, __ATOMIC_RELAXED);
      if (seq == 0) seq = __atomic_add_fetch(&k->seq, 1, __ATOMIC_RELAXED);
      memcpy((char *)buf + p->offset, &seq, 4);
    }
  }
  return GG_OK;
}

gg_status ggr_grid_for(gg_kernel *k, const void *packed, int64_t *blocks, int *threads) {
  const gg_kernel_desc *kd = k->desc;
  int64_t n = 1, e[3] = {1, 1, 1};
  *threads = kd->block_size;
  switch (kd->grid_rule) {
  case GG_GRID_COVER: {
    int empty = 0;
    for (int r = 0; r < kd->rank && r < 3; r++) {
      if (extent_value(kd, packed, kd->range[r], &e[r]) || e[r] < 0)
        return ggr_set_error(GG_ERR_INVALID, "%s: bad range extent %d", nm(kd->name), r);
      empty |= e[r] == 0;
    }
    for (int r = 0; !empty && r < kd->rank && r < 3; r++) {
      if (n > GGR_MAX_WORK / e[r])
        return ggr_set_error(GG_ERR_INVALID, "%s: range %lld x %lld x %lld has more than "
                             "2^62 indices", nm(kd->name), (long long)e[0], (long long)e[1],
                             (long long)e[2]);
      n *= e[r];
    }
    if (empty) n = 0;
    /* small work, small blocks (gg_kernel_desc.small_block); the cap below
     * at the big blocks' residency also bounds the workspace it needs */
    if (kd->small_block > 0 && kd->small_block < kd->block_size && n <= kd->small_work)
      *threads = kd->small_block;
    int64_t per = (int64_t)*threads * (kd->items_per_thread > 0 ? kd->items_per_thread : 1);
    n = n / per + (n % per != 0); /* ceil without overflow */
    break;
  }
  case GG_GRID_LEAGUE:
    if (extent_value(kd, packed, kd->league, &n) || n < 0 || n > GGR_MAX_WORK)
      return ggr_set_error(GG_ERR_INVALID, "%s: league size %lld (0 to 2^62)",
                           nm(kd->name), (long long)n);
    break;
  case GG_GRID_FIXED: n = kd->grid_fixed; break;
  case GG_GRID_RESIDENT: n = k->resident; break;
  }
  if (kd->cap_resident && n > k->resident) n = k->resident;
  /* an empty range still runs one block: reductions must write the identity */
  *blocks = n < 1 ? 1 : n;
  return GG_OK;
}

static gg_status launch_blocks(gg_kernel *k, gg_stream *s, int64_t blocks, int threads,
                               void *packed) {
  gg_context *ctx = k->mod->ctx;
  const gg_kernel_desc *kd = k->desc;
  const ggr_backend *be = ctx->be;
  int coop = kd->mode == GG_LAUNCH_COOPERATIVE || (kd->features & GG_FEAT_COOPERATIVE);
  if (kd->mode == GG_LAUNCH_PERSISTENT)
    return ggr_set_error(GG_ERR_STATE, "%s is persistent: run it through a session", kd->name);
  if (blocks < 1 || blocks > GGR_MAX_BLOCKS)
    return ggr_set_error(GG_ERR_INVALID, "%s: grid of %lld blocks (1 to %d)", kd->name,
                         (long long)blocks, GGR_MAX_BLOCKS);
  if (coop && (!ctx->cooperative || !be->launch_cooperative))
    return ggr_set_error(GG_ERR_UNSUPPORTED, "%s needs a cooperative launch, which %s on %s "
                         "does not support", kd->name, be->name, ctx->device_name);
  if (coop && blocks > k->resident)
    return ggr_set_error(GG_ERR_NOT_CORESIDENT, "%s: cooperative grid of %lld blocks exceeds "
                         "the %d co-resident blocks (%d per SM x %d SMs at %d threads, %u B "
                         "shared)", kd->name, (long long)blocks, k->resident, k->resident_per_sm,
                         ctx->sm_count, kd->block_size, kd->shared_bytes);
  if (kd->ws_per_block && (uint64_t)blocks * kd->ws_per_block + kd->ws_fixed > k->ws_bytes)
    return ggr_set_error(GG_ERR_INVALID, "%s: grid of %lld blocks is larger than its "
                         "workspace (%zu bytes) was sized for", kd->name, (long long)blocks,
                         k->ws_bytes);
  void *params[1] = {packed};
  void *stream = s ? s->native : NULL;
  int (*fn)(void *, unsigned, unsigned, unsigned, void *, void **) =
      coop ? be->launch_cooperative : be->launch;
  int r = fn(k->fn, (unsigned)blocks, (unsigned)threads, kd->shared_bytes, stream, params);
  if (r == GGR_E_INVALID_CONTEXT) {
    /* first launch from a new thread: CUDA contexts are current per thread */
    ggr_make_current(ctx);
    r = fn(k->fn, (unsigned)blocks, (unsigned)threads, kd->shared_bytes, stream, params);
  }
  if (r == 0) return GG_OK;
  gg_status st = ggr_check(ctx, r, kd->name);
  return st == GG_ERR_BACKEND ? GG_ERR_LAUNCH : st; /* the detail says which driver error */
}

/* 16-byte aligned so any field type lands on its natural alignment */
typedef union arg_buf {
  unsigned char b[GGR_MAX_ARGS];
  long double align;
} arg_buf;

gg_status gg_launch(gg_kernel *k, gg_stream *s, const gg_arg *args, int nargs) {
  if (!k) return GGR_NULL_ARG();
  arg_buf buf;
  int64_t blocks;
  gg_status st = ggr_pack_kernel_args(k, args, nargs, buf.b, sizeof buf.b);
  int threads;
  if (!st) st = ggr_grid_for(k, buf.b, &blocks, &threads);
  return st ? st : launch_blocks(k, s, blocks, threads, buf.b);
}

gg_status gg_launch_grid(gg_kernel *k, gg_stream *s, int blocks, const gg_arg *args, int nargs) {
  if (!k) return GGR_NULL_ARG();
  arg_buf buf;
  gg_status st = ggr_pack_kernel_args(k, args, nargs, buf.b, sizeof buf.b);
  return st ? st : launch_blocks(k, s, blocks, k->desc->block_size, buf.b);
}
