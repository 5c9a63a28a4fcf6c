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

/* Bytes of an element type: gg_module.h's table, which the generator reads too. */
static uint32_t dtype_size(gg_dtype t) {
  switch (t) {
#define SIZE_(e, name, bytes, ...) case e: return bytes;
  GG_DTYPE_LIST(SIZE_)
#undef SIZE_
  case GG_PTR: return 8;
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

/* ---- typed arguments: the constructor's type against the parameter's ---- */

/* Spellings of element types: gg_module.h's table. */
static const char *dtype_nm(gg_dtype t) {
#define NAME_(e, name, ...) name,
  static const char *const word[] = {GG_DTYPE_LIST(NAME_)};
#undef NAME_
  return (unsigned)t < sizeof word / sizeof word[0] ? word[t] : "?";
}

/* The gg_arg type a value of dtype t is made with, by name, not position:
 * a type added to gg_module.h's list and not here fails the assertion
 * (added last) or reads GG_ARG_NONE, which pack_one refuses. */
static gg_arg_type arg_type_of(gg_dtype t) {
  static const gg_arg_type map[] = {
    [GG_I32] = GG_ARG_I32, [GG_U32] = GG_ARG_U32, [GG_I64] = GG_ARG_I64, [GG_U64] = GG_ARG_U64,
    [GG_F32] = GG_ARG_F32, [GG_F64] = GG_ARG_F64, [GG_F16] = GG_ARG_F16, [GG_BF16] = GG_ARG_BF16};
  GG_STATIC_ASSERT(sizeof map / sizeof map[0] == GG_PTR, "a gg_arg type for every element type");
  return (unsigned)t < GG_PTR ? map[t] : GG_ARG_NONE;
}

static int is_int_arg(gg_arg_type t) {
  return t == GG_ARG_I32 || t == GG_ARG_U32 || t == GG_ARG_I64 || t == GG_ARG_U64;
}

/* "gg_arg_f64(2.5)": what the caller passed, for messages. */
static void describe_arg(const gg_arg *a, char *out, size_t size) {
  switch (a->type) {
  case GG_ARG_ARRAY: ggr_format(out, size, "gg_arg_array(%s)", a->v.array ? "..." : "NULL"); break;
  case GG_ARG_I32: ggr_format(out, size, "gg_arg_i32(%d)", (int)a->v.i32); break;
  case GG_ARG_U32: ggr_format(out, size, "gg_arg_u32(%u)", (unsigned)a->v.u32); break;
  case GG_ARG_I64: ggr_format(out, size, "gg_arg_i64(%lld)", (long long)a->v.i64); break;
  case GG_ARG_U64: ggr_format(out, size, "gg_arg_u64(%llu)", (unsigned long long)a->v.u64); break;
  case GG_ARG_F32: ggr_format(out, size, "gg_arg_f32(%.9g)", (double)a->v.f32); break;
  case GG_ARG_F64: ggr_format(out, size, "gg_arg_f64(%.17g)", a->v.f64); break;
  case GG_ARG_F16: ggr_format(out, size, "gg_arg_f16(%.9g)", (double)a->v.f32); break;
  case GG_ARG_BF16: ggr_format(out, size, "gg_arg_bf16(%.9g)", (double)a->v.f32); break;
  default:
    ggr_format(out, size, "a gg_arg of type %d, not made by a gg_arg_ constructor", (int)a->type);
  }
}

/* f32 -> f16 bits, rounded to nearest, ties to even; -1 when a finite
 * value rounds beyond the largest finite f16 (65504). */
static int f32_to_f16(float f, uint16_t *out) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 0xff) { /* infinity stays infinity; NaN stays a quiet NaN */
    *out = (uint16_t)(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
    return 0;
  }
  int32_t exp = (int32_t)e - 127 + 15;
  if (exp >= 31) return -1;
  uint32_t h, rem, half;
  if (exp <= 0) { /* an f16 subnormal (or zero): h units of 2^-24 */
    if (exp < -10) return *out = (uint16_t)sign, 0;
    uint32_t shift = (uint32_t)(14 - exp);
    m |= 0x800000u;
    h = m >> shift;
    rem = m & ((1u << shift) - 1);
    half = 1u << (shift - 1);
  } else {
    h = ((uint32_t)exp << 10) | (m >> 13);
    rem = m & 0x1fffu;
    half = 0x1000u;
  }
  if (rem > half || (rem == half && (h & 1))) h++; /* may carry into the exponent: still right */
  if (h >= 0x7c00u) return -1;
  *out = (uint16_t)(sign | h);
  return 0;
}

/* f32 -> bf16 bits (the high half of the f32), rounded the same way. */
static int f32_to_bf16(float f, uint16_t *out) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  if ((x & 0x7f800000u) == 0x7f800000u) { /* infinity, or NaN kept quiet */
    *out = (uint16_t)((x >> 16) | ((x & 0x7fffffu) ? 0x40u : 0));
    return 0;
  }
  x += 0x7fffu + ((x >> 16) & 1);
  if ((x & 0x7f800000u) == 0x7f800000u) return -1;
  *out = (uint16_t)(x >> 16);
  return 0;
}

/* An integer argument converted to a field of dtype t (i32, u32, i64,
 * u64); -1 when its value does not fit. */
static int int_fits(const gg_arg *a, gg_dtype t, char *field) {
  int neg = 0;
  uint64_t mag; /* the value's magnitude */
  switch (a->type) {
  case GG_ARG_I32: neg = a->v.i32 < 0; mag = neg ? 0u - (uint64_t)(int64_t)a->v.i32 : (uint64_t)a->v.i32; break;
  case GG_ARG_I64: neg = a->v.i64 < 0; mag = neg ? 0u - (uint64_t)a->v.i64 : (uint64_t)a->v.i64; break;
  case GG_ARG_U32: mag = a->v.u32; break;
  default: mag = a->v.u64; break;
  }
  uint64_t bits = neg ? 0u - mag : mag; /* two's complement of the value */
  switch (t) {
  case GG_I32:
    if (neg ? mag > UINT64_C(0x80000000) : mag > INT32_MAX) return -1;
    { int32_t v = (int32_t)(int64_t)bits; memcpy(field, &v, 4); }
    return 0;
  case GG_U32:
    if (neg || mag > UINT32_MAX) return -1;
    { uint32_t v = (uint32_t)mag; memcpy(field, &v, 4); }
    return 0;
  case GG_I64:
    if (neg ? mag > UINT64_C(0x8000000000000000) : mag > INT64_MAX) return -1;
    memcpy(field, &bits, 8);
    return 0;
  case GG_U64:
    if (neg) return -1;
    memcpy(field, &mag, 8);
    return 0;
  default: return -1;
  }
}

static const char *kind_word(gg_param_kind k) {
  return k == GG_PARAM_EXTENT ? "an extent" : k == GG_PARAM_STRIDE ? "a stride" : "a scalar";
}

/* A refusal that shows what the caller passed ("got gg_arg_f64(2.5)"):
 * the text is made only on the way out, never for an argument that packs. */
#define FAIL_GOT(...) (describe_arg(a, got, sizeof got), FAIL(__VA_ARGS__))

static gg_status pack_one(const gg_param_desc *p, const gg_arg *a, char *buf, char *err,
                          size_t err_size) {
  char got[96];
  if ((unsigned)a->type - 1u > (unsigned)GG_ARG_BF16 - 1u)
    return FAIL_GOT("parameter %s: got %s: make every argument with gg_arg_array(), gg_arg_i64(), "
                    "...", nm(p->name), got);
  switch (p->kind) {
  case GG_PARAM_VIEW: {
    if (a->type != GG_ARG_ARRAY)
      return FAIL_GOT("parameter %s is a view of %s: pass gg_arg_array(), got %s", nm(p->name),
                      dtype_nm(p->dtype), got);
    if (!a->v.array)
      return FAIL("parameter %s: NULL array (gg_arg_array(NULL)): pass an array from "
                  "gg_array_alloc", nm(p->name));
    if (a->v.array->space == GG_SPACE_HOST)
      return FAIL("parameter %s: a host array is not visible to kernels; copy it to a device "
                  "array or allocate it mapped", nm(p->name));
    uint64_t d = a->v.array->dptr;
    memcpy(buf + p->offset, &d, sizeof d);
    return GG_OK;
  }
  case GG_PARAM_SCALAR:
  case GG_PARAM_EXTENT:
  case GG_PARAM_STRIDE: {
    /* extents and strides are i64 fields whatever the descriptor says */
    gg_dtype t = p->kind == GG_PARAM_SCALAR ? p->dtype : GG_I64;
    gg_arg_type want = arg_type_of(t);
    char *field = buf + p->offset;
    if (want == GG_ARG_NONE)
      return FAIL("parameter %s: element type %d in the descriptor", nm(p->name), (int)p->dtype);
    if (is_int_arg(want)) {
      if (!is_int_arg(a->type))
        return FAIL_GOT("parameter %s is %s of type %s: pass gg_arg_%s() (or another integer "
                        "constructor whose value fits), got %s", nm(p->name), kind_word(p->kind),
                        dtype_nm(t), dtype_nm(t), got);
      if (int_fits(a, t, field))
        return FAIL_GOT("parameter %s is %s of type %s: %s does not fit it", nm(p->name),
                        kind_word(p->kind), dtype_nm(t), got);
    } else {
      if (a->type != want)
        return FAIL_GOT("parameter %s is %s of type %s: pass gg_arg_%s(), got %s (floating-point "
                        "values are never converted)", nm(p->name), kind_word(p->kind), dtype_nm(t),
                        dtype_nm(t), got);
      uint16_t h = 0;
      if (want == GG_ARG_F16 || want == GG_ARG_BF16) {
        if ((want == GG_ARG_F16 ? f32_to_f16 : f32_to_bf16)(a->v.f32, &h))
          return FAIL_GOT("parameter %s is %s of type %s: %s is beyond its range (largest finite "
                          "%s)", nm(p->name), kind_word(p->kind), dtype_nm(t), got,
                          want == GG_ARG_F16 ? "65504" : "3.3895314e38");
        memcpy(field, &h, 2);
      } else {
        memcpy(field, &a->v, want == GG_ARG_F32 ? 4 : 8);
      }
    }
    int64_t v = p->kind == GG_PARAM_SCALAR ? 0 : read_i64(buf, p->offset);
    if (p->kind == GG_PARAM_EXTENT && v < 0)
      return FAIL("parameter %s: extent %lld is negative", nm(p->name), (long long)v);
    /* a stride of 0 would make distinct indices alias one element */
    if (p->kind == GG_PARAM_STRIDE && v < 1)
      return FAIL("parameter %s: stride %lld (strides are element counts >= 1)", nm(p->name),
                  (long long)v);
    return GG_OK;
  }
  default:
    return FAIL("parameter %s: unknown kind %d", nm(p->name), (int)p->kind);
  }
}

#undef FAIL_GOT

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
/* No written view shares memory with another view: a kernel's views are
 * __restrict__, and a frame orders its stages by its views, so a stage
 * writing y would not wait for (or be waited for by) one reading x when x
 * and y were one array.  Arrays are whole allocations; their ranges are
 * compared all the same. */
static gg_status views_apart(const gg_kernel_desc *kd, const gg_arg *args, char *err,
                             size_t err_size) {
  for (int i = 0, ai = 0; i < kd->nparams; i++) {
    const gg_param_desc *p = &kd->params[i];
    if (p->kind == GG_PARAM_HIDDEN) continue;
    const gg_array *a = args[ai++].v.array;
    if (p->kind != GG_PARAM_VIEW) continue;
    for (int j = i + 1, bj = ai; j < kd->nparams; j++) {
      const gg_param_desc *q = &kd->params[j];
      if (q->kind == GG_PARAM_HIDDEN) continue;
      const gg_array *b = args[bj++].v.array;
      if (q->kind != GG_PARAM_VIEW || (p->access == GG_ACCESS_IN && q->access == GG_ACCESS_IN))
        continue;
      if (a == b || (a->dptr < b->dptr + b->bytes && b->dptr < a->dptr + a->bytes))
        return FAIL("views %s and %s are passed %s, and %s writes %s: a written view may share "
                    "no memory with another view (a kernel's views are __restrict__, and a "
                    "frame orders its stages by its views); pass separate arrays", nm(p->name),
                    nm(q->name), a == b ? "the same array" : "overlapping arrays", nm(kd->name),
                    nm(p->access != GG_ACCESS_IN ? p->name : q->name));
    }
  }
  return GG_OK;
}

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
  return views_apart(kd, args, err, err_size);
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

/* The caller's buffer holds the argument struct. */
static gg_status buffer_fits(const gg_kernel_desc *kd, size_t buf_size, char *err,
                             size_t err_size) {
  if (kd->args_size > buf_size) return FAIL("buffer of %zu bytes for a %u-byte argument struct",
                                            buf_size, kd->args_size);
  return GG_OK;
}

static gg_status check_layout(const gg_kernel_desc *kd, size_t buf_size, char *err,
                              size_t err_size) {
  if (kd->nparams < 0) return FAIL("descriptor of %s: %d params", nm(kd->name), kd->nparams);
  gg_status st = buffer_fits(kd, buf_size, err, err_size);
  if (st) return st;
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

/* The arguments into buf, for a descriptor whose layout has been checked
 * (check_layout) and which takes `visible` arguments. */
static gg_status pack_checked(const gg_kernel_desc *kd, int visible, const gg_arg *args, int nargs,
                              void *buf, char *err, size_t err_size) {
  if (nargs && !args) return FAIL("NULL argument");
  if (nargs != visible)
    return FAIL("kernel %s takes %d arguments, %d given", nm(kd->name), visible, nargs);
  memset(buf, 0, kd->args_size); /* padding and hidden fields start at zero */
  gg_status st;
  for (int i = 0, j = 0; i < kd->nparams; i++) {
    if (kd->params[i].kind == GG_PARAM_HIDDEN) continue;
    if ((st = pack_one(&kd->params[i], &args[j++], buf, err, err_size))) return st;
  }
  if ((st = check_tiles(kd, buf, err, err_size))) return st;
  return check_views(kd, args, buf, err, err_size);
}

static int visible_params(const gg_kernel_desc *kd) {
  int visible = 0;
  for (int i = 0; i < kd->nparams; i++) visible += kd->params[i].kind != GG_PARAM_HIDDEN;
  return visible;
}

gg_status gg_pack_args(const gg_kernel_desc *kd, const gg_arg *args, int nargs, void *buf,
                       size_t buf_size) {
  char err[512];
  const size_t err_size = sizeof err;
  gg_status st = !kd || !buf || (kd->nparams && !kd->params) ? FAIL("NULL argument")
               : check_layout(kd, buf_size, err, err_size);
  if (!st) st = pack_checked(kd, visible_params(kd), args, nargs, buf, err, err_size);
  return st ? ggr_set_error(st, "%s: %s", kd ? nm(kd->name) : "gg_pack_args", err) : GG_OK;
}

/* Once per kernel, when its module loads: the descriptor's layout, so
 * that every later pack (each launch, each frame a session starts: on
 * the path of every frame) checks only the arguments. */
gg_status ggr_kernel_check_layout(gg_kernel *k) {
  char err[512];
  const size_t err_size = sizeof err;
  const gg_kernel_desc *kd = k->desc;
  gg_status st = kd->nparams && !kd->params ? FAIL("descriptor of %s: no parameter table",
                                                   nm(kd->name))
               : check_layout(kd, kd->args_size, err, err_size);
  if (st) return ggr_set_error(st, "module %s: %s", nm(k->mod->desc->name), err);
  k->nargs = visible_params(kd);
  return GG_OK;
}

gg_status ggr_pack_kernel_args(gg_kernel *k, const gg_arg *args, int nargs, void *buf,
                               size_t buf_size) {
  char err[512];
  const size_t err_size = sizeof err;
  const gg_kernel_desc *kd = k->desc;
  gg_status st = buffer_fits(kd, buf_size, err, err_size);
  if (!st) st = pack_checked(kd, k->nargs, args, nargs, buf, err, err_size);
  if (st) return ggr_set_error(st, "%s: %s", nm(kd->name), err);
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
  case GG_GRID_LEAGUE: {
    int64_t per = kd->league_blocks > 1 ? kd->league_blocks : 1;
    if (extent_value(kd, packed, kd->league, &n) || n < 0 || n > GGR_MAX_WORK / per)
      return ggr_set_error(GG_ERR_INVALID, "%s: league size %lld (0 to 2^62 / %lld)",
                           nm(kd->name), (long long)n, (long long)per);
    n *= per;
    break;
  }
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
      coop ? be->launch_cooperative
      : s && s->pdl && (kd->features & GG_FEAT_PDL) ? be->launch_pdl /* set_pdl checked it */
      : be->launch;
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
