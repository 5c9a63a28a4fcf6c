/*
 * emit.c - render the kernel sources and the C module from the IR.
 *
 * One source per target: a comment header, the backend's prelude, then
 * for every kernel its argument struct, its body function (the pattern
 * template) and its __global__ wrapper, then the persistent kernels
 * (emit_persistent.c).  Templates only substitute {{KEY}}s: every
 * decision is made here or in specialize.c / reduce_plan.c and arrives as
 * a value or a ready-made snippet.
 *
 * Output is deterministic: no time, no pointers, IR order everywhere.
 */
#include "emit.h"
#include "frame.h"
#include "names.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit_persistent.h"
#include "templates.h"

#ifndef GG_VERSION_STRING
#define GG_VERSION_STRING "0.0.0"
#endif

/* #line back to the generated file; fixed up once the whole source is
 * known (see fix_line_backs). */
#define LINE_BACK "#line GG_LINE_BACK"


/* ---- types ---- */

static const char *dtype_ctype(gg_dtype t)
{
  switch (t) {
  case GG_I32: return "int";
  case GG_U32: return "unsigned";
  case GG_I64: return "long long";
  case GG_U64: return "unsigned long long";
  case GG_F32: return "float";
  case GG_F64: return "double";
  case GG_F16: return "gg_f16";
  case GG_BF16: return "gg_bf16";
  default: return "void *";
  }
}

/* The same type on the host (the module header's mirror structs). */
static const char *dtype_host_ctype(gg_dtype t)
{
  switch (t) {
  case GG_I32: return "int32_t";
  case GG_U32: return "uint32_t";
  case GG_I64: return "int64_t";
  case GG_U64: return "uint64_t";
  case GG_F32: return "float";
  case GG_F64: return "double";
  case GG_F16: case GG_BF16: return "uint16_t";
  default: return "void *";
  }
}

static unsigned dtype_size(gg_dtype t)
{
  switch (t) {
  case GG_I32: case GG_U32: case GG_F32: return 4;
  case GG_F16: case GG_BF16: return 2;
  default: return 8;
  }
}

static const char *dtype_enum(gg_dtype t)
{
  static const char *names[] = {"GG_I32", "GG_U32", "GG_I64", "GG_U64", "GG_F32",
                                "GG_F64", "GG_F16", "GG_BF16", "GG_PTR"};
  return (unsigned)t < GG_DTYPE_COUNT ? names[t] : "GG_PTR";
}

static const char *dtype_name(gg_dtype t)
{
  static const char *names[] = {"i32", "u32", "i64", "u64", "f32", "f64", "f16", "bf16", "ptr"};
  return (unsigned)t < GG_DTYPE_COUNT ? names[t] : "?";
}

static const char *pattern_name(gg_pattern p)
{
  static const char *names[] = {"for", "reduce", "scan", "team", "tile_reduce", "frame"};
  return (unsigned)p <= GG_PATTERN_FRAME ? names[p] : "?";
}

static const char *op_name(ggi_op op)
{
  static const char *names[] = {"sum", "min", "max", "prod", "custom"};
  return (unsigned)op <= GGI_OP_CUSTOM ? names[op] : "?";
}

static const char *layout_name(gg_persistent_layout l)
{
  static const char *names[] = {"one_block", "many_blocks", "thread_groups", "hybrid"};
  return (unsigned)l <= GG_PLAYOUT_HYBRID ? names[l] : "?";
}

static const char *strategy_name(ggi_strategy s) { return ggi_strategy_name(s); }

static int is_reduce_like(const ggi_kernel *k)
{
  return k->pattern == GG_PATTERN_REDUCE || k->pattern == GG_PATTERN_SCAN ||
         k->pattern == GG_PATTERN_TILE_REDUCE;
}

/* ---- arena strings ---- */

static const char *afmt(ggi_arena *a, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *s = ggi_alloc(a, (size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* The buffer's text copied into the arena; the buffer is freed. */
static const char *buf_to_arena(ggi_arena *a, ggi_buf *b)
{
  const char *s = ggi_buf_ok(b) ? ggi_strdup(a, b->p ? b->p : "") : NULL;
  ggi_buf_free(b);
  return s;
}

/* An extent as a C expression: a number, or the extent's variable. */
static const char *extent_expr(ggi_arena *a, const ggi_extent *e)
{
  return e->name ? afmt(a, "(%s)", e->name) : afmt(a, "%lldLL", (long long)e->value);
}

/* ---- the argument struct ---- */

typedef struct field {
  const char *name;
  gg_param_kind kind;
  gg_dtype dtype;         /* element type of a view, value type otherwise */
  int param;              /* index into k->params for scalars and views */
  int hidden;
  unsigned offset, size, align;
} field;

typedef struct layout {
  int n;
  field *f;
  unsigned size, align;
} layout;

/* Fields in ABI order (docs/internals.md): params, run-time extents,
 * strides, hidden fields; offsets by natural alignment. */
static int args_layout(const ggi_kernel *k, const ggi_plan *p, ggi_arena *a, layout *out,
                       ggi_diag *d)
{
  int max = k->nparams + k->nextents + 3 * k->nparams + 2;
  field *f = ggi_alloc(a, sizeof *f * (size_t)(max > 0 ? max : 1));
  if (!f) return ggi_fail(d, "out of memory");
  int n = 0;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    f[n++] = (field){pp->name, pp->kind, pp->dtype, i, GG_HIDDEN_NONE, 0,
                     pp->kind == GG_PARAM_VIEW ? 8 : dtype_size(pp->dtype), 0};
  }
  for (int i = 0; i < k->nextents; i++)
    f[n++] = (field){k->extents[i], GG_PARAM_EXTENT, GG_I64, -1, GG_HIDDEN_NONE, 0, 8, 0};
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind != GG_PARAM_VIEW || pp->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < pp->rank; dim++)
      f[n++] = (field){afmt(a, "%s_s%d", pp->name, dim), GG_PARAM_STRIDE, GG_I64, i,
                       GG_HIDDEN_NONE, 0, 8, 0};
  }
  if (p->ws_fixed || p->ws_per_block)
    f[n++] = (field){"gg_ws", GG_PARAM_HIDDEN, GG_PTR, -1, GG_HIDDEN_WORKSPACE, 0, 8, 0};
  if (p->needs_seq)
    f[n++] = (field){"gg_seq", GG_PARAM_HIDDEN, GG_U32, -1, GG_HIDDEN_SEQ, 0, 4, 0};

  unsigned off = 0, align = 1;
  for (int i = 0; i < n; i++) {
    if (!f[i].name) return ggi_fail(d, "out of memory");
    f[i].align = f[i].size; /* every field type is naturally aligned */
    off = (off + f[i].align - 1) / f[i].align * f[i].align;
    f[i].offset = off;
    off += f[i].size;
    if (f[i].align > align) align = f[i].align;
  }
  out->n = n;
  out->f = f;
  out->align = align;
  out->size = off ? (off + align - 1) / align * align : 0;
  return 0;
}

static const char *field_ctype(const ggi_kernel *k, const field *f, ggi_arena *a)
{
  if (f->kind == GG_PARAM_VIEW) {
    const ggi_param *pp = &k->params[f->param];
    return afmt(a, "%s%s *", pp->access == GG_ACCESS_IN ? "const " : "", dtype_ctype(f->dtype));
  }
  if (f->hidden == GG_HIDDEN_WORKSPACE) return "void *";
  return dtype_ctype(f->dtype);
}

/* ---- plans ---- */

static unsigned view_features(const ggi_kernel *k)
{
  unsigned feat = 0;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->dtype == GG_F16 || pp->dtype == GG_BF16) feat |= GG_FEAT_HALF;
    if (pp->kind != GG_PARAM_VIEW) continue;
    if (pp->space == GG_SPACE_MAPPED) feat |= GG_FEAT_MAPPED;
    if (pp->space == GG_SPACE_MANAGED) feat |= GG_FEAT_MANAGED;
    if (pp->access == GG_ACCESS_ATOMIC && pp->dtype == GG_F32) feat |= GG_FEAT_FLOAT_ATOMIC;
    if (pp->access == GG_ACCESS_ATOMIC && pp->dtype == GG_F64) feat |= GG_FEAT_DOUBLE_ATOMIC;
  }
  if (k->acc_type == GG_F16 || k->acc_type == GG_BF16) feat |= is_reduce_like(k) ? GG_FEAT_HALF : 0;
  if (k->spec.cas_emulation) feat |= GG_FEAT_CAS_EMULATION;
  return feat;
}

/* Scratch views of a team, 16-byte aligned one after the other. */
static uint32_t scratch_bytes(const ggi_kernel *k)
{
  uint64_t off = 0;
  for (int i = 0; i < k->nscratch; i++) {
    uint64_t n = dtype_size(k->scratch[i].dtype);
    for (int dim = 0; dim < k->scratch[i].rank; dim++) n *= (uint64_t)k->scratch[i].ext[dim].value;
    off += (n + 15) / 16 * 16;
  }
  return off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
}

int ggi_kernel_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                    ggi_diag *d)
{
  memset(p, 0, sizeof *p);
  if (k->pattern == GG_PATTERN_FRAME) return ggi_frame_plan(k, target, a, p, d);
  if (is_reduce_like(k)) {
    if (ggi_reduce_plan(k, target, a, p, d) != 0) return -1;
    p->features |= view_features(k);
    return 0;
  }
  if (k->pattern == GG_PATTERN_FOR) {
    p->template_path = "common/for.cuh";
    p->grid_rule = GG_GRID_COVER;
  } else if (k->pattern == GG_PATTERN_TEAM) {
    p->template_path = "common/team.cuh";
    p->grid_rule = GG_GRID_LEAGUE;
    /* scratch views, then 8 bytes per thread for team_sum/min/max */
    p->shared_bytes = scratch_bytes(k) + 8u * (uint32_t)k->spec.block;
    /* a team is exactly team_size threads: fewer would compute part of
     * it, more would overrun team_sum's 8 bytes per thread */
    p->min_threads = p->max_threads = k->spec.block;
  } else {
    return ggi_fail(d, "kernel '%s': unknown pattern %d", k->name, (int)k->pattern);
  }
  p->features = view_features(k);
  if (k->launch == GG_LAUNCH_COOPERATIVE) {
    /* A co-resident grid, launched cooperatively.  No grid_sync() in for
       and team bodies: their loops over indices (teams) give threads
       different trip counts, so a barrier inside one would deadlock;
       reductions with strategy grid_sync use it in their own template. */
    p->grid_rule = GG_GRID_RESIDENT;
    p->cap_resident = 1;
    p->features |= GG_FEAT_COOPERATIVE;
  }
  return 0;
}

/* ---- dictionaries and templates ---- */

int ggi_dict_set(ggi_dict *dict, const char *key, const char *value)
{
  for (int i = 0; i < dict->n; i++)
    if (strcmp(dict->keys[i], key) == 0) {
      dict->values[i] = value;
      return 0;
    }
  if (dict->n == GGI_DICT_MAX) return -1;
  dict->keys[dict->n] = key;
  dict->values[dict->n++] = value;
  return 0;
}

static const char *dict_get(const ggi_dict *dict, const char *key, size_t len)
{
  for (int i = 0; i < dict->n; i++)
    if (strlen(dict->keys[i]) == len && memcmp(dict->keys[i], key, len) == 0)
      return dict->values[i];
  return NULL;
}

/* Length of the placeholder name at s ("NAME}}"), or 0 when s does not
 * start one: C++ may have "{{" of its own (nested initializers). */
static size_t key_len(const char *s)
{
  size_t n = 0;
  while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_') n++;
  if (n == 0 || !(s[0] >= 'A' && s[0] <= 'Z') || s[n] != '}' || s[n + 1] != '}') return 0;
  return n;
}

/* "{{> common/x.cuh}}" at s: the length of the whole marker, with the
 * piece's path copied into path; 0 when s is not one.  A template uses it
 * for a piece that two patterns share whole (no choice in it: what is
 * chosen per kernel is the plan's list of pieces). */
static size_t piece_marker(const char *s, char *path, size_t size)
{
  if (strncmp(s, "{{> ", 4) != 0) return 0;
  const char *end = strstr(s + 4, "}}");
  size_t n = end ? (size_t)(end - (s + 4)) : 0;
  if (n == 0 || n >= size || memchr(s + 4, '\n', n)) return 0;
  memcpy(path, s + 4, n);
  path[n] = 0;
  return n + 6;
}

static int render_text(const char *templates_dir, const char *path, const ggi_dict *dict,
                       ggi_buf *out, ggi_diag *d, int depth)
{
  char *owned = NULL;
  char err[512], piece[128];
  if (depth > 4) return ggi_fail(d, "template %s: pieces nested too deep", path);
  const char *text = ggi_template_get(templates_dir, path, &owned, err, sizeof err);
  if (!text) return ggi_fail(d, "%s", err);
  const char *s = text;
  int rc = 0;
  while (*s) {
    const char *open = strstr(s, "{{");
    size_t n = open ? key_len(open + 2) : 0;
    size_t m = open && !n ? piece_marker(open, piece, sizeof piece) : 0;
    if (!open) {
      ggi_buf_puts(out, s);
      break;
    }
    ggi_buf_putn(out, s, (size_t)(open - s) + (n || m ? 0 : 2));
    s = open + 2;
    if (m) {
      rc = render_text(templates_dir, piece, dict, out, d, depth + 1);
      if (rc != 0) break;
      s = open + m;
      continue;
    }
    if (!n) continue;
    const char *v = dict_get(dict, open + 2, n);
    if (!v) {
      rc = ggi_fail(d, "template %s: unknown key {{%.*s}}", path, (int)n, open + 2);
      break;
    }
    ggi_buf_puts(out, v);
    s = open + 2 + n + 2;
  }
  free(owned);
  if (rc == 0 && !ggi_buf_ok(out)) rc = ggi_fail(d, "out of memory rendering %s", path);
  return rc;
}

int ggi_render_template(const char *templates_dir, const char *path, const ggi_dict *dict,
                        ggi_buf *out, ggi_diag *d)
{
  return render_text(templates_dir, path, dict, out, d, 0);
}

/* A snippet from the workload file, framed by #line so that compiler
 * messages name FILE.lua:LINE, then a #line back to the generated file. */
static const char *snippet(ggi_arena *a, const ggi_module *m, const char *text, int line)
{
  ggi_buf b = {0};
  ggi_buf_printf(&b, "#line %d \"", line > 0 ? line : 1);
  ggi_buf_put_cstr(&b, m->file ? m->file : "workload.lua");
  ggi_buf_printf(&b, "\"\n%s\n" LINE_BACK "\n", text ? text : "");
  return buf_to_arena(a, &b);
}

/* One statement of an UNPACK list: a line of its own, indented like the
 * template's {{UNPACK}}. */
static void stmt(ggi_buf *b, const char *fmt, ...)
{
  if (b->len) ggi_buf_puts(b, "\n  ");
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *tmp = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!tmp) {
    b->oom = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(tmp, (size_t)n + 1, fmt, ap);
  va_end(ap);
  ggi_buf_puts(b, tmp);
  free(tmp);
}

/* Per view: the extents its index macro needs, then the macro. */
static void view_unpack(ggi_buf *un, ggi_buf *mac, ggi_buf *undef, const ggi_param *pp,
                        ggi_arena *a)
{
  const char *v = pp->name;
  for (int dim = 0; dim < pp->rank; dim++)
    stmt(un, "const long long %s_e%d = %s;", v, dim, extent_expr(a, &pp->ext[dim]));
  if (pp->layout == GG_LAYOUT_STRIDE)
    for (int dim = 0; dim < pp->rank; dim++)
      stmt(un, "const long long %s_s%d = args.%s_s%d;", v, dim, v, dim);

  static const char *params[] = {"(i0)", "(i0, i1)", "(i0, i1, i2)"};
  ggi_buf_printf(mac, "#define %s%s %s[", v, params[pp->rank - 1], v);
  if (pp->layout == GG_LAYOUT_STRIDE) {
    for (int dim = 0; dim < pp->rank; dim++)
      ggi_buf_printf(mac, "%s(i%d)*%s_s%d", dim ? " + " : "", dim, v, dim);
  } else if (pp->rank == 1) {
    ggi_buf_puts(mac, "(i0)");
  } else if (pp->layout == GG_LAYOUT_RIGHT) {
    /* row-major: the last index is contiguous */
    if (pp->rank == 2) ggi_buf_printf(mac, "(i0)*%s_e1 + (i1)", v);
    else ggi_buf_printf(mac, "((i0)*%s_e1 + (i1))*%s_e2 + (i2)", v, v);
  } else {
    /* column-major: the first index is contiguous */
    if (pp->rank == 2) ggi_buf_printf(mac, "(i0) + (i1)*%s_e0", v);
    else ggi_buf_printf(mac, "(i0) + ((i1) + (i2)*%s_e1)*%s_e0", v, v);
  }
  ggi_buf_puts(mac, "]\n");
  ggi_buf_printf(undef, "#undef %s\n", v);
}

/* Which range index is contiguous: the one the kernel's rank-matching
 * views store contiguously (layout right: the last; left: the first).
 * Returns 1 when the first index should vary fastest. */
static int first_index_fastest(const ggi_kernel *k)
{
  int left = 0, right = 0;
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind != GG_PARAM_VIEW || pp->rank != k->rank) continue;
    if (pp->layout == GG_LAYOUT_LEFT) left++;
    if (pp->layout == GG_LAYOUT_RIGHT) right++;
  }
  return left > right;
}

/* Declares the named indices from gg_lin (for) or the team ids (team). */
static const char *index_decode(const ggi_kernel *k, ggi_arena *a)
{
  ggi_buf b = {0};
  if (k->pattern == GG_PATTERN_TEAM) {
    if (k->index[0]) ggi_buf_printf(&b, "const long long %s = league_rank; ", k->index[0]);
    if (k->index[1]) ggi_buf_printf(&b, "const int %s = team_rank; ", k->index[1]);
    ggi_buf_puts(&b, "(void)team_size;");
    return buf_to_arena(a, &b);
  }
  const char *idx[GGI_MAX_RANK];
  for (int dim = 0; dim < k->rank; dim++)
    idx[dim] = k->index[dim] ? k->index[dim] : afmt(a, "gg_i%d", dim);
  if (k->rank == 1) {
    ggi_buf_printf(&b, "const long long %s = gg_lin;", idx[0]);
    return buf_to_arena(a, &b);
  }
  /* Peel the fastest index off first.  Constant extents divide by a
     constant (the compiler turns it into a multiply); run-time ones go
     through gg_divmod, 32-bit when the numbers fit. */
  ggi_buf_puts(&b, "long long gg_r = gg_lin, gg_q, gg_m;");
  int first = first_index_fastest(k);
  for (int step = 0; step < k->rank; step++) {
    int dim = first ? step : k->rank - 1 - step;
    const char *e = extent_expr(a, &k->range[dim]);
    if (step == k->rank - 1)
      ggi_buf_printf(&b, "\n      const long long %s = gg_r;", idx[dim]);
    else if (k->range[dim].name)
      ggi_buf_printf(&b, "\n      gg_divmod(gg_r, %s, gg_q, gg_m); const long long %s = gg_m; gg_r = gg_q;",
                     e, idx[dim]);
    else
      ggi_buf_printf(&b, "\n      const long long %s = gg_r %% %s; gg_r /= %s;", idx[dim], e, e);
  }
  ggi_buf_puts(&b, "\n      (void)gg_q; (void)gg_m;");
  return buf_to_arena(a, &b);
}

static const char *work_expr(const ggi_kernel *k, ggi_arena *a)
{
  ggi_buf b = {0};
  ggi_buf_puts(&b, "(");
  for (int dim = 0; dim < k->rank; dim++)
    ggi_buf_printf(&b, "%s(long long)%s", dim ? " * " : "", extent_expr(a, &k->range[dim]));
  if (k->rank == 0) ggi_buf_puts(&b, "0LL");
  ggi_buf_puts(&b, ")");
  return buf_to_arena(a, &b);
}

static const char *identity_of(const ggi_kernel *k)
{
  int is_float = k->acc_type == GG_F32 || k->acc_type == GG_F64 || k->acc_type == GG_F16 ||
                 k->acc_type == GG_BF16;
  switch (k->op) {
  case GGI_OP_SUM: return "0";
  case GGI_OP_PROD: return "1";
  case GGI_OP_MIN:
    if (is_float) return "(GG_INF)";
    switch (k->acc_type) {
    case GG_I32: return "2147483647";
    case GG_U32: return "4294967295u";
    case GG_I64: return "9223372036854775807LL";
    default: return "18446744073709551615ULL";
    }
  case GGI_OP_MAX:
    if (is_float) return "(-GG_INF)";
    switch (k->acc_type) {
    case GG_I32: return "(-2147483647 - 1)";
    case GG_I64: return "(-9223372036854775807LL - 1)";
    default: return "0";
    }
  default: return k->identity ? k->identity : "0";
  }
}

/* The reduce/scan/tile_reduce keys of docs/internals.md; a plan's own
 * keys (set afterwards) replace these. */
static int reduce_keys(const ggi_module *m, const ggi_kernel *k, ggi_dict *dict, ggi_arena *a)
{
  static const char *combine[] = {"((a) + (b))", "((b) < (a) ? (b) : (a))",
                                  "((a) < (b) ? (b) : (a))", "((a) * (b))"};
  static const char *atomic[] = {"gg_atomic_add", "gg_atomic_min", "gg_atomic_max",
                                 "gg_atomic_cas_combine", "gg_atomic_cas_combine"};
  const char *comb = k->op == GGI_OP_CUSTOM ? afmt(a, "(%s)", k->combine ? k->combine : "a")
                                            : combine[k->op];
  int rc = 0;
  rc |= ggi_dict_set(dict, "ACC_T", dtype_ctype(k->acc_type));
  rc |= ggi_dict_set(dict, "IDENTITY", identity_of(k));
  rc |= ggi_dict_set(dict, "COMBINE_DEF", afmt(a, "#define GG_COMBINE(a, b) %s", comb));
  rc |= ggi_dict_set(dict, "ATOMIC_COMBINE", atomic[k->op <= GGI_OP_CUSTOM ? k->op : 4]);
  rc |= ggi_dict_set(dict, "INTO", k->into ? k->into : "");
  rc |= ggi_dict_set(dict, "NVALUES", afmt(a, "%d", k->nvalues));
  rc |= ggi_dict_set(dict, "TILE", afmt(a, "%d", k->tile));
  rc |= ggi_dict_set(dict, "INCLUSIVE", k->scan_kind == GGI_SCAN_INCLUSIVE ? "1" : "0");
  rc |= ggi_dict_set(dict, "N", k->rank > 0 ? afmt(a, "(long long)%s", extent_expr(a, &k->range[0]))
                                           : "0LL");
  rc |= ggi_dict_set(dict, "VALUE", snippet(a, m, k->nvalues > 0 ? k->values[0] : "0", k->value_line));
  for (int v = 0; v < k->nvalues && v < GGI_MAX_VALUES; v++)
    rc |= ggi_dict_set(dict, afmt(a, "VALUE_%d", v), snippet(a, m, k->values[v], k->value_line));
  return rc;
}

int ggi_kernel_dict(const ggi_module *m, const ggi_kernel *k, unsigned target,
                    const ggi_plan *p, ggi_dict *dict, ggi_diag *d)
{
  ggi_arena *a = m->arena;
  layout lay;
  if (args_layout(k, p, a, &lay, d) != 0) return -1;
  memset(dict, 0, sizeof *dict);

  ggi_buf fields = {0}, un = {0}, mac = {0}, undef = {0}, scratch = {0};
  for (int i = 0; i < lay.n; i++)
    ggi_buf_printf(&fields, "  %s%s%s; /* offset %u */\n", field_ctype(k, &lay.f[i], a),
                   lay.f[i].kind == GG_PARAM_VIEW ? "" : " ", lay.f[i].name, lay.f[i].offset);
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind == GG_PARAM_SCALAR) {
      stmt(&un, "const %s %s = args.%s;", dtype_ctype(pp->dtype), pp->name, pp->name);
      continue;
    }
    /* Views of one kernel must not overlap: they are __restrict__, except
       atomic ones, which other threads write concurrently by design. */
    stmt(&un, "%s%s *%s%s = args.%s;", pp->access == GG_ACCESS_IN ? "const " : "",
                   dtype_ctype(pp->dtype), pp->access == GG_ACCESS_ATOMIC ? "" : "__restrict__ ",
                   pp->name, pp->name);
  }
  for (int i = 0; i < k->nextents; i++)
    stmt(&un, "const long long %s = args.%s;", k->extents[i], k->extents[i]);
  for (int i = 0; i < k->nparams; i++)
    if (k->params[i].kind == GG_PARAM_VIEW) view_unpack(&un, &mac, &undef, &k->params[i], a);
  stmt(&un, "(void)args;");

  uint32_t soff = 0;
  for (int i = 0; i < k->nscratch; i++) {
    const ggi_param *sp = &k->scratch[i];
    stmt(&scratch, "%s *__restrict__ %s = (%s *)(g.smem + %u);", dtype_ctype(sp->dtype),
                   sp->name, dtype_ctype(sp->dtype), (unsigned)soff);
    view_unpack(&scratch, &mac, &undef, sp, a);
    uint64_t n = dtype_size(sp->dtype);
    for (int dim = 0; dim < sp->rank; dim++) n *= (uint64_t)sp->ext[dim].value;
    soff += (uint32_t)((n + 15) / 16 * 16);
  }

  int rc = 0;
  rc |= ggi_dict_set(dict, "NAME", k->name);
  rc |= ggi_dict_set(dict, "SYMBOL", afmt(a, "gg_%s", k->name));
  rc |= ggi_dict_set(dict, "ARGS_T", afmt(a, "gg_args_%s", k->name));
  rc |= ggi_dict_set(dict, "ARGS_FIELDS", buf_to_arena(a, &fields));
  rc |= ggi_dict_set(dict, "UNPACK", buf_to_arena(a, &un));
  rc |= ggi_dict_set(dict, "VIEW_MACROS", buf_to_arena(a, &mac));
  rc |= ggi_dict_set(dict, "VIEW_UNDEFS", buf_to_arena(a, &undef));
  rc |= ggi_dict_set(dict, "BLOCK", afmt(a, "%d", k->spec.block));
  rc |= ggi_dict_set(dict, "ITEMS", afmt(a, "%d", k->spec.items));
  rc |= ggi_dict_set(dict, "VECTOR", afmt(a, "%d", k->spec.vector));
  rc |= ggi_dict_set(dict, "RANK", afmt(a, "%d", k->rank));
  rc |= ggi_dict_set(dict, "WORK", work_expr(k, a));
  rc |= ggi_dict_set(dict, "INDEX_DECODE", index_decode(k, a));
  rc |= ggi_dict_set(dict, "BODY", snippet(a, m, k->body, k->body_line));
  rc |= ggi_dict_set(dict, "TARGET", target == GGI_TARGET_HIP ? "hip" : "cuda");
  if (k->pattern == GG_PATTERN_TEAM) {
    rc |= ggi_dict_set(dict, "LEAGUE", afmt(a, "(long long)%s", extent_expr(a, &k->league)));
    rc |= ggi_dict_set(dict, "SCRATCH", buf_to_arena(a, &scratch));
    rc |= ggi_dict_set(dict, "SCRATCH_BYTES", afmt(a, "%u", (unsigned)soff));
  } else {
    ggi_buf_free(&scratch);
  }
  if (is_reduce_like(k)) rc |= reduce_keys(m, k, dict, a);
  for (int i = 0; i < p->nvars; i++) rc |= ggi_dict_set(dict, p->keys[i], p->values[i]);
  for (int i = 0; i < dict->n; i++)
    if (!dict->values[i]) rc = -1;
  if (rc) return ggi_fail(d, "kernel '%s': out of memory or too many template keys", k->name);
  return 0;
}

/* ---- whole sources ---- */

static void spec_summary(ggi_buf *b, const ggi_kernel *k)
{
  ggi_buf_printf(b, "%s", pattern_name(k->pattern));
  if (is_reduce_like(k))
    ggi_buf_printf(b, " %s %s, strategy %s", op_name(k->op), dtype_name(k->acc_type),
                   strategy_name(k->spec.strategy));
  ggi_buf_printf(b, ", %s, block %d, items %d, vector %d%s",
                 k->launch == GG_LAUNCH_COOPERATIVE ? "cooperative" : "classic", k->spec.block,
                 k->spec.items, k->spec.vector, k->spec.cas_emulation ? ", CAS emulation" : "");
}

/* The comment header of every generated file: where it comes from and
 * what each kernel was specialized to.  target 0: the C module (all). */
static void source_header(ggi_buf *b, const ggi_module *m, unsigned target, const char *what)
{
  unsigned mask = target ? target : GGI_TARGET_CUDA | GGI_TARGET_HIP;
  ggi_buf_printf(b, "/* Generated by gpugen %s from \"", GG_VERSION_STRING);
  ggi_buf_put_cstr(b, m->file ? m->file : "?");
  ggi_buf_puts(b, "\" - do not edit.\n");
  ggi_buf_printf(b, " * Module %s: %s.\n", m->name, what);
  ggi_buf_puts(b, " * Kernels:\n");
  for (int i = 0; i < m->nkernels; i++) {
    const ggi_kernel *k = &m->kernels[i];
    if (!(k->targets & mask)) continue;
    ggi_buf_printf(b, " *   gg_%s: ", k->name);
    spec_summary(b, k);
    ggi_buf_puts(b, "\n");
  }
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    if (!(p->targets & mask)) continue;
    ggi_buf_printf(b, " *   gg_persist_%s: persistent, %s, %d slot(s), commands", p->name,
                   layout_name(p->layout), p->buffering);
    for (int c = 0; c < p->ncommands; c++) ggi_buf_printf(b, " %s", p->commands[c]);
    ggi_buf_puts(b, "\n");
  }
  ggi_buf_puts(b, " * Views of one kernel must not overlap (they are __restrict__).\n */\n");
}

/* Replace every LINE_BACK line by `#line <its own line + 1> "name"`. */
static int fix_line_backs(ggi_buf *src, const char *name)
{
  ggi_buf out = {0};
  const char *s = src->p ? src->p : "";
  int line = 1;
  size_t mlen = strlen(LINE_BACK);
  while (*s) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    if (len == mlen && memcmp(s, LINE_BACK, mlen) == 0)
      ggi_buf_printf(&out, "#line %d \"%s\"", line + 1, name);
    else
      ggi_buf_putn(&out, s, len);
    if (!nl) break;
    ggi_buf_puts(&out, "\n");
    s = nl + 1;
    line++;
  }
  if (!ggi_buf_ok(&out)) {
    ggi_buf_free(&out);
    return -1;
  }
  ggi_buf_free(src);
  *src = out;
  return 0;
}

static int module_uses(const ggi_module *m, unsigned target, gg_dtype t)
{
  for (int i = 0; i < m->nkernels; i++) {
    const ggi_kernel *k = &m->kernels[i];
    if (!(k->targets & target)) continue;
    if (is_reduce_like(k) && k->acc_type == t) return 1;
    for (int j = 0; j < k->nparams; j++)
      if (k->params[j].dtype == t) return 1;
    for (int j = 0; j < k->nscratch; j++)
      if (k->scratch[j].dtype == t) return 1;
  }
  return 0;
}

/* The plan's template, or its pieces one after the other (plan.h). */
static int render_parts(const char *templates_dir, const ggi_plan *plan, const ggi_dict *dict,
                        ggi_buf *out, ggi_diag *d)
{
  if (plan->nparts == 0) return ggi_render_template(templates_dir, plan->template_path, dict, out, d);
  for (int i = 0; i < plan->nparts; i++)
    if (ggi_render_template(templates_dir, plan->template_parts[i], dict, out, d) != 0) return -1;
  return 0;
}

static int render_kernel(const ggi_module *m, const ggi_kernel *k, unsigned target,
                         const char *templates_dir, ggi_buf *out, ggi_diag *d)
{
  if (k->pattern == GG_PATTERN_FRAME) return ggi_emit_frame(m, k, target, templates_dir, out, d);
  ggi_plan plan;
  ggi_dict dict;
  if (ggi_kernel_plan(k, target, m->arena, &plan, d) != 0) return -1;
  if (ggi_kernel_dict(m, k, target, &plan, &dict, d) != 0) return -1;
  ggi_buf_printf(out, "\n/* ==== %s (\"", k->name);
  ggi_buf_put_cstr(out, m->file ? m->file : "?");
  ggi_buf_printf(out, "\":%d): ", k->line);
  spec_summary(out, k);
  ggi_buf_printf(out, " ==== */\nstruct gg_args_%s {\n%s};\n\n", k->name,
                 dict_get(&dict, "ARGS_FIELDS", strlen("ARGS_FIELDS")));
  if (render_parts(templates_dir, &plan, &dict, out, d) != 0) return -1;
  ggi_buf_puts(out, "\n");
  const char *wrapper = k->launch == GG_LAUNCH_COOPERATIVE ? "common/kernel_cooperative.cuh"
                                                           : "common/kernel_classic.cuh";
  return ggi_render_template(templates_dir, wrapper, &dict, out, d);
}

int ggi_render_source(const ggi_module *m, unsigned target, const char *templates_dir,
                      char **out, ggi_diag *d)
{
  *out = NULL;
  if (target != GGI_TARGET_CUDA && target != GGI_TARGET_HIP)
    return ggi_fail(d, "render: unknown target %u", target);
  ggi_buf b = {0};
  source_header(&b, m, target,
                target == GGI_TARGET_HIP ? "HIP source for hiprtc" : "CUDA source for NVRTC");
  if (module_uses(m, target, GG_F16)) ggi_buf_puts(&b, "#define GG_USE_HALF 1\n");
  if (module_uses(m, target, GG_BF16)) ggi_buf_puts(&b, "#define GG_USE_BF16 1\n");
  int coop = 0;
  for (int i = 0; i < m->nkernels; i++)
    if ((m->kernels[i].targets & target) &&
        (m->kernels[i].launch == GG_LAUNCH_COOPERATIVE ||
         m->kernels[i].spec.strategy == GGI_STRAT_GRID_SYNC))
      coop = 1;
  if (coop) ggi_buf_puts(&b, "#define GG_USE_GRID_SYNC 1\n");

  ggi_dict none = {0};
  const char *prelude = target == GGI_TARGET_HIP ? "hip/prelude.hip" : "cuda/prelude.cuh";
  int rc = ggi_render_template(templates_dir, prelude, &none, &b, d);
  int frames = 0; /* the frame barrier goes in once, before the first frame */
  for (int i = 0; rc == 0 && i < m->nkernels; i++) {
    /* persistent commands are rendered for their persistent kernel's
       targets even when they are not launched on their own there */
    int wanted = (m->kernels[i].targets & target) != 0;
    for (int p = 0; p < m->npersistent && !wanted; p++)
      for (int c = 0; c < m->persistent[p].ncommands; c++)
        if (m->persistent[p].command_index[c] == i && (m->persistent[p].targets & target))
          wanted = 1;
    if (wanted && m->kernels[i].pattern == GG_PATTERN_FRAME && !frames++)
      rc = ggi_render_template(templates_dir,
                               target == GGI_TARGET_HIP ? "hip/frame.hip" : "cuda/frame.cuh", &none,
                               &b, d);
    if (wanted && rc == 0) rc = render_kernel(m, &m->kernels[i], target, templates_dir, &b, d);
  }
  for (int i = 0; rc == 0 && i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    if (!(p->targets & target)) continue;
    rc = ggi_emit_persistent(m, p, target, templates_dir, &b, d);
  }
  if (rc == 0 && !ggi_buf_ok(&b)) rc = ggi_fail(d, "out of memory rendering %s", m->name);
  char name[300];
  snprintf(name, sizeof name, "%s.%s", m->name, target == GGI_TARGET_HIP ? "hip" : "cu");
  if (rc == 0 && fix_line_backs(&b, name) != 0) rc = ggi_fail(d, "out of memory");
  if (rc != 0) {
    ggi_buf_free(&b);
    return -1;
  }
  *out = ggi_buf_take(&b);
  return 0;
}

/* ---- the C module ---- */

const char *const ggi_cuda_options[] = {"-std=c++17", "-default-device", NULL};
const char *const ggi_hip_options[] = {"-std=c++17", NULL};

static void put_options(ggi_buf *b, const char *name, const char *module, const char *const *opts)
{
  ggi_buf_printf(b, "static const char *const gg_%s_options_%s[] = {", name, module);
  for (int i = 0; opts[i]; i++) ggi_buf_printf(b, "\"%s\", ", opts[i]);
  ggi_buf_puts(b, "0};\n");
}

/* A long text as a C string literal, one source line per literal line. */
static void put_literal(ggi_buf *b, const char *text)
{
  if (!*text) {
    ggi_buf_puts(b, "  \"\"");
    return;
  }
  while (*text) {
    const char *nl = strchr(text, '\n');
    size_t len = nl ? (size_t)(nl - text) + 1 : strlen(text);
    char *line = malloc(len + 1);
    if (!line) {
      b->oom = 1;
      return;
    }
    memcpy(line, text, len);
    line[len] = 0;
    ggi_buf_puts(b, "  \"");
    ggi_buf_put_cstr(b, line);
    ggi_buf_puts(b, nl && nl[1] ? "\"\n" : "\"");
    free(line);
    text += len;
  }
}

static void put_extent_desc(ggi_buf *b, const ggi_kernel *k, const ggi_extent *e)
{
  int param = -1;
  if (e->name)
    for (int i = 0; i < k->nextents; i++)
      if (strcmp(k->extents[i], e->name) == 0) param = k->nparams + i;
  ggi_buf_printf(b, "{%lld, %d}", e->name ? 0LL : (long long)e->value, param);
}

static const char *const kind_enum[] = {"GG_PARAM_SCALAR", "GG_PARAM_VIEW", "GG_PARAM_EXTENT",
                                        "GG_PARAM_STRIDE", "GG_PARAM_HIDDEN"};
static const char *const layout_enum[] = {"GG_LAYOUT_RIGHT", "GG_LAYOUT_LEFT", "GG_LAYOUT_STRIDE"};
static const char *const space_enum[] = {"GG_SPACE_DEVICE", "GG_SPACE_MAPPED", "GG_SPACE_MANAGED",
                                         "GG_SPACE_HOST"};
static const char *const access_enum[] = {"GG_ACCESS_IN", "GG_ACCESS_OUT", "GG_ACCESS_INOUT",
                                          "GG_ACCESS_ATOMIC"};
static const char *const hidden_enum[] = {"GG_HIDDEN_NONE", "GG_HIDDEN_WORKSPACE", "GG_HIDDEN_SEQ"};

static void put_params(ggi_buf *b, const ggi_module *m, const ggi_kernel *k, const layout *lay)
{
  ggi_buf_printf(b, "static const gg_param_desc gg_params_%s_%s[] = {\n", m->name, k->name);
  for (int i = 0; i < lay->n; i++) {
    const field *f = &lay->f[i];
    const ggi_param *pp = f->kind == GG_PARAM_VIEW ? &k->params[f->param] : NULL;
    ggi_buf_printf(b, "  {.name = \"%s\", .kind = %s, .dtype = %s, .rank = %d,\n", f->name,
                   kind_enum[f->kind], dtype_enum(f->dtype), pp ? pp->rank : 0);
    ggi_buf_puts(b, "   .extents = {");
    for (int dim = 0; dim < 3; dim++) {
      if (pp && dim < pp->rank) put_extent_desc(b, k, &pp->ext[dim]);
      else ggi_buf_puts(b, "{0, -1}");
      ggi_buf_puts(b, dim < 2 ? ", " : "},\n");
    }
    const ggi_param *src = f->param >= 0 ? &k->params[f->param] : NULL;
    ggi_buf_printf(b, "   .layout = %s, .space = %s, .access = %s, .hidden = %s,\n",
                   layout_enum[src && pp ? src->layout : 0], space_enum[src && pp ? src->space : 0],
                   access_enum[src && f->kind != GG_PARAM_STRIDE ? src->access : 0],
                   hidden_enum[f->hidden]);
    ggi_buf_printf(b, "   .offset = %u, .size = %u},\n", f->offset, f->size);
  }
  ggi_buf_puts(b, "};\n\n");
}

static const char *const rule_enum[] = {"GG_GRID_COVER", "GG_GRID_LEAGUE", "GG_GRID_FIXED",
                                        "GG_GRID_RESIDENT"};
static const char *const pattern_enum[] = {"GG_PATTERN_FOR", "GG_PATTERN_REDUCE", "GG_PATTERN_SCAN",
                                           "GG_PATTERN_TEAM", "GG_PATTERN_TILE_REDUCE",
                                           "GG_PATTERN_FRAME"};

static void put_features(ggi_buf *b, unsigned feat)
{
  static const char *names[] = {"GG_FEAT_COOPERATIVE", "GG_FEAT_FLOAT_ATOMIC",
                                "GG_FEAT_DOUBLE_ATOMIC", "GG_FEAT_CAS_EMULATION", "GG_FEAT_HALF",
                                "GG_FEAT_MAPPED", "GG_FEAT_MANAGED"};
  int any = 0;
  for (unsigned i = 0; i < 7; i++)
    if (feat & (1u << i)) {
      ggi_buf_printf(b, "%s%s", any ? " | " : "", names[i]);
      any = 1;
    }
  if (!any) ggi_buf_puts(b, "0");
}

/* Everything the descriptor needs about one kernel (target-independent:
 * plans differ between targets only in template text, so the CUDA plan,
 * or the HIP one for HIP-only kernels, sizes the descriptor). */
typedef struct kinfo {
  ggi_plan plan;
  layout lay;
} kinfo;

static unsigned desc_target(const ggi_module *m, const ggi_kernel *k)
{
  unsigned t = k->targets ? k->targets : m->targets;
  return (t & GGI_TARGET_CUDA) ? GGI_TARGET_CUDA : GGI_TARGET_HIP;
}

static int kernel_info(const ggi_module *m, const ggi_kernel *k, kinfo *ki, ggi_diag *d)
{
  if (ggi_kernel_plan(k, desc_target(m, k), m->arena, &ki->plan, d) != 0) return -1;
  return args_layout(k, &ki->plan, m->arena, &ki->lay, d);
}

static void put_kernel_desc(ggi_buf *b, const ggi_module *m, const ggi_kernel *k, const kinfo *ki)
{
  const ggi_plan *p = &ki->plan;
  /* a frame has no function of its own: its stages run in a persistent kernel */
  ggi_buf_printf(b, "  {.name = \"%s\", .symbol = \"gg_%s%s\", .pattern = %s,\n", k->name,
                 k->pattern == GG_PATTERN_FRAME ? "frame_" : "", k->name, pattern_enum[k->pattern]);
  ggi_buf_printf(b, "   .mode = %s, .rank = %d, .range = {",
                 k->launch == GG_LAUNCH_COOPERATIVE   ? "GG_LAUNCH_COOPERATIVE"
                 : k->launch == GG_LAUNCH_PERSISTENT ? "GG_LAUNCH_PERSISTENT"
                                                     : "GG_LAUNCH_CLASSIC",
                 k->rank);
  for (int dim = 0; dim < 3; dim++) {
    if (dim < k->rank) put_extent_desc(b, k, &k->range[dim]);
    else ggi_buf_puts(b, "{0, -1}");
    ggi_buf_puts(b, dim < 2 ? ", " : "},\n");
  }
  ggi_buf_puts(b, "   .league = ");
  if (k->pattern == GG_PATTERN_TEAM) put_extent_desc(b, k, &k->league);
  else ggi_buf_puts(b, "{0, -1}");
  ggi_buf_printf(b, ", .block_size = %d, .items_per_thread = %d,\n", k->spec.block, k->spec.items);
  ggi_buf_printf(b, "   .grid_rule = %s, .grid_fixed = %lld, .cap_resident = %d, .shared_bytes = %u,\n",
                 rule_enum[p->grid_rule], (long long)p->grid_fixed, p->cap_resident,
                 (unsigned)p->shared_bytes);
  ggi_buf_printf(b, "   .ws_fixed = %u, .ws_per_block = %u, .features = ", (unsigned)p->ws_fixed,
                 (unsigned)p->ws_per_block);
  put_features(b, p->features);
  ggi_buf_printf(b, ",\n   .args_size = %u, .args_align = %u, .nparams = %d, .params = gg_params_%s_%s,\n",
                 ki->lay.size, ki->lay.align, ki->lay.n, m->name, k->name);
  ggi_buf_printf(b, "   .strategy = \"%s\", .lua_line = %d",
                 is_reduce_like(k) ? strategy_name(k->spec.strategy) : pattern_name(k->pattern),
                 k->line);
  if (p->small_block > 0)
    ggi_buf_printf(b, ", .small_block = %d, .small_work = %lld", p->small_block,
                   (long long)p->small_work);
  int into = -1;
  for (int i = 0; k->pattern == GG_PATTERN_TILE_REDUCE && i < k->nparams; i++)
    if (strcmp(k->params[i].name, k->into) == 0) into = i;
  ggi_buf_printf(b, ",\n   .tile = %d, .into_param = %d",
                 k->pattern == GG_PATTERN_TILE_REDUCE ? k->tile : 0, into);
  ggi_buf_puts(b, "},\n");
}

static void put_persistent_desc(ggi_buf *b, const ggi_module *m, const ggi_persistent *p,
                                const ggi_persistent_shape *shape, const kinfo *ki)
{
  static const char *const playout_enum[] = {"GG_PLAYOUT_ONE_BLOCK", "GG_PLAYOUT_MANY_BLOCKS",
                                             "GG_PLAYOUT_THREAD_GROUPS", "GG_PLAYOUT_HYBRID"};
  uint32_t slot = 0;
  for (int c = 0; c < p->ncommands; c++) {
    const kinfo *ci = &ki[p->command_index[c]];
    if (ci->lay.size > slot) slot = ci->lay.size;
  }
  ggi_buf_printf(b, "  {.name = \"%s\", .symbol = \"gg_persist_%s\", .layout = %s,\n", p->name,
                 p->name, playout_enum[p->layout]);
  ggi_buf_printf(b, "   .block_size = %d, .blocks = %d, .groups = %d, .buffering = %d,\n",
                 shape->block, shape->blocks, shape->groups, p->buffering);
  ggi_buf_printf(b, "   .ncommands = %d, .commands = gg_commands_%s_%s, .slot_args_size = %u,\n",
                 p->ncommands, m->name, p->name, (unsigned)slot);
  ggi_buf_printf(b, "   .shared_bytes = %u, .lua_line = %d, .group_smem = %u,\n",
                 (unsigned)shape->shared_bytes, p->line, (unsigned)shape->group_smem);
  ggi_buf_printf(b, "   .plan = gg_pcommands_%s_%s},\n", m->name, p->name);
}

/* The persistent kernels' plans, in the target the descriptor describes
 * (the one its source was rendered for first). */
static int persistent_shapes(const ggi_module *m, ggi_persistent_shape **out, ggi_diag *d)
{
  *out = NULL;
  if (!m->npersistent) return 0;
  ggi_persistent_shape *sh = ggi_alloc(m->arena, sizeof *sh * (size_t)m->npersistent);
  if (!sh) return ggi_fail(d, "out of memory");
  for (int i = 0; i < m->npersistent; i++) {
    if (ggi_persistent_plan(m, &m->persistent[i], &sh[i], d) != 0) return -1;
  }
  *out = sh;
  return 0;
}

static int write_module_c(ggi_buf *b, const ggi_module *m, const char *cu, const char *hip,
                          const kinfo *ki, ggi_diag *d)
{
  source_header(b, m, 0, "the kernel sources and their descriptors (gg_module.h)");
  ggi_buf_printf(b, "#include \"%s.h\"\n\n", m->name);
  const char *names[2] = {"cuda", "hip"};
  const char *texts[2] = {cu, hip};
  for (int t = 0; t < 2; t++) {
    if (!texts[t]) continue;
    ggi_buf_printf(b, "static const char gg_%s_source_%s[] =\n", names[t], m->name);
    put_literal(b, texts[t]);
    ggi_buf_puts(b, ";\n\n");
  }
  put_options(b, "cuda", m->name, ggi_cuda_options);
  put_options(b, "hip", m->name, ggi_hip_options);
  ggi_buf_puts(b, "\n");
  for (int i = 0; i < m->nkernels; i++) put_params(b, m, &m->kernels[i], &ki[i].lay);
  if (m->nkernels) {
    ggi_buf_printf(b, "static const gg_kernel_desc gg_kernels_%s[] = {\n", m->name);
    for (int i = 0; i < m->nkernels; i++) put_kernel_desc(b, m, &m->kernels[i], &ki[i]);
    ggi_buf_puts(b, "};\n\n");
  }
  ggi_persistent_shape *shapes;
  if (persistent_shapes(m, &shapes, d) != 0) return -1;
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    ggi_buf_printf(b, "static const int gg_commands_%s_%s[] = {", m->name, p->name);
    for (int c = 0; c < p->ncommands; c++) ggi_buf_printf(b, "%s%d", c ? ", " : "", p->command_index[c]);
    ggi_buf_puts(b, "};\n");
    ggi_buf_printf(b, "static const gg_persistent_command gg_pcommands_%s_%s[] = {\n", m->name,
                   p->name);
    for (int c = 0; c < p->ncommands; c++) {
      const gg_persistent_command *pc = &shapes[i].cmd[c];
      ggi_buf_printf(b, "  {.ws_fixed = %u, .ws_per_block = %u, .min_threads = %d, "
                        ".max_threads = %d}, /* %s */\n",
                     (unsigned)pc->ws_fixed, (unsigned)pc->ws_per_block, pc->min_threads,
                     pc->max_threads, p->commands[c]);
    }
    ggi_buf_puts(b, "};\n");
  }
  if (m->npersistent) {
    ggi_buf_printf(b, "\nstatic const gg_persistent_desc gg_persistent_%s[] = {\n", m->name);
    for (int i = 0; i < m->npersistent; i++)
      put_persistent_desc(b, m, &m->persistent[i], &shapes[i], ki);
    ggi_buf_puts(b, "};\n");
  }
  ggi_buf_printf(b, "\nconst gg_module_desc gg_module_%s = {\n", m->name);
  ggi_buf_printf(b, "  .abi = GG_MODULE_ABI,\n  .name = \"%s\",\n  .lua_file = \"", m->name);
  ggi_buf_put_cstr(b, m->file ? m->file : "");
  ggi_buf_printf(b, "\",\n  .gpugen_version = \"%s\",\n", GG_VERSION_STRING);
  ggi_buf_printf(b, "  .cuda_source = %s%s,\n", cu ? "gg_cuda_source_" : "NULL", cu ? m->name : "");
  ggi_buf_printf(b, "  .hip_source = %s%s,\n", hip ? "gg_hip_source_" : "NULL", hip ? m->name : "");
  ggi_buf_printf(b, "  .cuda_options = gg_cuda_options_%s,\n  .hip_options = gg_hip_options_%s,\n",
                 m->name, m->name);
  ggi_buf_printf(b, "  .nkernels = %d,\n  .kernels = %s%s,\n", m->nkernels,
                 m->nkernels ? "gg_kernels_" : "NULL", m->nkernels ? m->name : "");
  ggi_buf_printf(b, "  .npersistent = %d,\n  .persistent = %s%s,\n};\n", m->npersistent,
                 m->npersistent ? "gg_persistent_" : "NULL", m->npersistent ? m->name : "");
  return 0;
}

static const char *gg_arg_fn(gg_dtype t)
{
  switch (t) {
  case GG_I32: return "gg_arg_i32";
  case GG_U32: return "gg_arg_u32";
  case GG_I64: return "gg_arg_i64";
  case GG_U64: return "gg_arg_u64";
  case GG_F32: return "gg_arg_f32";
  case GG_F64: return "gg_arg_f64";
  case GG_F16: return "gg_arg_f16"; /* takes a float */
  case GG_BF16: return "gg_arg_bf16";
  default: return NULL;
  }
}

static void upper(ggi_buf *b, const char *s)
{
  for (; *s; s++) {
    char c = *s;
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    ggi_buf_putn(b, &c, 1);
  }
}

/* The header's names for kernel k (names.c's ggi_name_part: the kernel's
 * part is left out when it repeats the module's name):
 *   GG_<MODULE>[_<KERNEL>]_<ARG>, _NARGS, _FIELDS   argument indices, X-macro
 *   gg_<module>_args[_<kernel>]                      the argument struct
 *   gg_<module>_launch[_<kernel>]                    typed launcher
 *   gg_<module>_start[_<kernel>]                     typed starter (frames and
 *                                                    persistent commands) */
static void put_kernel_api(ggi_buf *b, const ggi_module *m, const ggi_kernel *k, const layout *lay)
{
  char part[GGI_NAME_PART_MAX];
  ggi_name_part(m->name, k->name, part);
  ggi_buf_printf(b, "\n/* %s (\"", k->name);
  ggi_buf_put_cstr(b, m->file ? m->file : "?");
  /* A frame is started in a session, never launched; a command of a
     persistent kernel is both launched and started.  Starters take the
     command id (GG_<MODULE>_<PERSISTENT>_CMD_<COMMAND>) because one kernel
     may be a command of several persistent kernels. */
  int frame = k->pattern == GG_PATTERN_FRAME, command = frame;
  for (int p = 0; p < m->npersistent; p++)
    for (int c = 0; c < m->persistent[p].ncommands; c++)
      command |= m->persistent[p].command_index[c] == (int)(k - m->kernels);
  ggi_buf_printf(b, "\":%d): arguments of %s, in this order. */\nenum {\n", k->line,
                 frame ? "gg_session_start" : command ? "gg_launch and gg_session_start" : "gg_launch");
  int nargs = 0, typed = 1;
  for (int i = 0; i < lay->n; i++) {
    if (lay->f[i].kind == GG_PARAM_HIDDEN) continue;
    ggi_buf_puts(b, "  GG_");
    upper(b, m->name);
    upper(b, part);
    ggi_buf_puts(b, "_");
    upper(b, lay->f[i].name);
    ggi_buf_printf(b, " = %d,\n", nargs++);
    if (lay->f[i].kind != GG_PARAM_VIEW && !gg_arg_fn(lay->f[i].dtype)) typed = 0;
  }
  ggi_buf_puts(b, "  GG_");
  upper(b, m->name);
  upper(b, part);
  ggi_buf_printf(b, "_NARGS = %d\n};\n", nargs);

  /* The argument struct as the host sees it (same offsets, checked by the
     tests), e.g. for building persistent frames by hand. */
  ggi_buf_printf(b, "typedef struct gg_%s_args%s {\n", m->name, part);
  for (int i = 0; i < lay->n; i++) {
    const field *f = &lay->f[i];
    const char *t = f->kind == GG_PARAM_VIEW || f->hidden == GG_HIDDEN_WORKSPACE
                        ? "void *" : dtype_host_ctype(f->dtype);
    ggi_buf_printf(b, "  %s%s%s;\n", t, t[strlen(t) - 1] == '*' ? "" : " ", f->name);
  }
  ggi_buf_printf(b, "} gg_%s_args%s;\n", m->name, part);
  /* X(struct type, kernel index, field) for every field: lets tools and
     tests walk the struct without knowing it. */
  ggi_buf_puts(b, "#define GG_");
  upper(b, m->name);
  upper(b, part);
  ggi_buf_puts(b, "_FIELDS(X)");
  for (int i = 0; i < lay->n; i++)
    ggi_buf_printf(b, " X(gg_%s_args%s, %d, %s)", m->name, part, (int)(k - m->kernels),
                   lay->f[i].name);
  ggi_buf_puts(b, "\n");

  if (!typed) return;
  for (int starter = frame; starter <= command; starter++) {
    /* gg_-prefixed locals: workload names can't collide with them */
    if (starter)
      ggi_buf_printf(b, "static inline gg_status gg_%s_start%s(gg_session *gg_s, int gg_cmd, "
                        "uint64_t *gg_frame", m->name, part);
    else
      ggi_buf_printf(b, "static inline gg_status gg_%s_launch%s(gg_kernel *gg_k, gg_stream *gg_s",
                     m->name, part);
    for (int i = 0; i < lay->n; i++) {
      const field *f = &lay->f[i];
      if (f->kind == GG_PARAM_HIDDEN) continue;
      if (f->kind == GG_PARAM_VIEW) ggi_buf_printf(b, ", gg_array *%s", f->name);
      else if (f->dtype == GG_F16 || f->dtype == GG_BF16) ggi_buf_printf(b, ", float %s", f->name);
      else ggi_buf_printf(b, ", %s %s", dtype_host_ctype(f->dtype), f->name);
    }
    /* one element at least: C has no empty arrays */
    ggi_buf_printf(b, ")\n{\n  const gg_arg gg_a[%d] = {", nargs ? nargs : 1);
    int first = 1;
    for (int i = 0; i < lay->n; i++) {
      const field *f = &lay->f[i];
      if (f->kind == GG_PARAM_HIDDEN) continue;
      ggi_buf_printf(b, "%s%s(%s)", first ? "" : ", ",
                     f->kind == GG_PARAM_VIEW ? "gg_arg_array" : gg_arg_fn(f->dtype), f->name);
      first = 0;
    }
    if (nargs == 0) ggi_buf_puts(b, "gg_arg_i64(0)");
    if (starter)
      ggi_buf_printf(b, "};\n  return gg_session_start(gg_s, gg_cmd, gg_a, %d, gg_frame);\n}\n",
                     nargs);
    else
      ggi_buf_printf(b, "};\n  return gg_launch(gg_k, gg_s, gg_a, %d);\n}\n", nargs);
  }
}

static int write_module_h(ggi_buf *b, const ggi_module *m, const kinfo *ki)
{
  source_header(b, m, 0, "the module descriptor, argument indices, typed launchers and starters");
  ggi_buf_puts(b, "#ifndef GG_MODULE_");
  upper(b, m->name);
  ggi_buf_puts(b, "_H\n#define GG_MODULE_");
  upper(b, m->name);
  ggi_buf_puts(b, "_H\n\n#include <stdint.h>\n#include \"gg.h\"\n");
  int sessions = m->npersistent > 0; /* typed starters of frames and commands */
  for (int i = 0; i < m->nkernels; i++) sessions |= m->kernels[i].pattern == GG_PATTERN_FRAME;
  if (sessions) ggi_buf_puts(b, "#include \"gg_session.h\"\n");
  ggi_buf_puts(b, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  ggi_buf_printf(b, "extern const gg_module_desc gg_module_%s;\n", m->name);
  for (int i = 0; i < m->nkernels; i++) put_kernel_api(b, m, &m->kernels[i], &ki[i].lay);
  /* Command ids: what gg_session_start and the typed starters take. */
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    char part[GGI_NAME_PART_MAX];
    ggi_name_part(m->name, p->name, part);
    ggi_buf_printf(b, "\n/* persistent %s (\"", p->name);
    ggi_buf_put_cstr(b, m->file ? m->file : "?");
    ggi_buf_printf(b, "\":%d): command ids of its sessions. */\nenum {\n", p->line);
    for (int c = 0; c < p->ncommands; c++) {
      ggi_buf_puts(b, "  GG_");
      upper(b, m->name);
      upper(b, part);
      ggi_buf_puts(b, "_CMD_");
      upper(b, p->commands[c]);
      ggi_buf_printf(b, " = %d,\n", c);
    }
    ggi_buf_puts(b, "  GG_");
    upper(b, m->name);
    upper(b, part);
    ggi_buf_printf(b, "_NCOMMANDS = %d\n};\n", p->ncommands);
  }
  ggi_buf_puts(b, "\n/* Every kernel's fields: X(struct type, kernel index, field). */\n#define GG_");
  upper(b, m->name);
  ggi_buf_puts(b, "_ALL_FIELDS(X)");
  for (int i = 0; i < m->nkernels; i++) {
    char part[GGI_NAME_PART_MAX];
    ggi_buf_puts(b, " GG_");
    upper(b, m->name);
    upper(b, ggi_name_part(m->name, m->kernels[i].name, part));
    ggi_buf_puts(b, "_FIELDS(X)");
  }
  ggi_buf_puts(b, "\n");
  ggi_buf_puts(b, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
  return ggi_buf_ok(b) ? 0 : -1;
}

/* Write through a temporary file and rename, so a reader never sees half
 * a file and a failed run leaves the old one. */
static int write_atomic(const char *dir, const char *name, const char *text, ggi_diag *d)
{
  size_t n = strlen(dir) + strlen(name) + 32;
  char *path = malloc(n), *tmp = malloc(n);
  if (!path || !tmp) {
    free(path);
    free(tmp);
    return ggi_fail(d, "out of memory");
  }
  snprintf(path, n, "%s/%s", dir, name);
  snprintf(tmp, n, "%s/.%s.XXXXXX", dir, name);
  int rc = 0;
  /* mkstemp: a new file of our own, never a name someone could plant a
   * symbolic link at; then the usual mode (0666 less the umask) */
  FILE *f = NULL;
  int fd = mkstemp(tmp);
  if (fd >= 0) {
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) == 0) f = fdopen(fd, "wb");
    if (!f) {
      int e = errno;
      close(fd);
      remove(tmp);
      errno = e;
    }
  }
  if (!f) {
    rc = ggi_fail(d, "cannot write %s: %s", tmp, strerror(errno));
  } else {
    size_t len = strlen(text);
    int bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad) rc = ggi_fail(d, "cannot write %s: %s", tmp, strerror(errno));
    else if (rename(tmp, path) != 0) rc = ggi_fail(d, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (rc) remove(tmp);
  }
  free(path);
  free(tmp);
  return rc;
}

int ggi_emit(const ggi_module *m, const char *dir, const char *templates_dir, ggi_diag *d)
{
  char *src[2] = {NULL, NULL};
  const unsigned targets[2] = {GGI_TARGET_CUDA, GGI_TARGET_HIP};
  const char *ext[2] = {"cu", "hip"};
  kinfo *ki = calloc((size_t)(m->nkernels > 0 ? m->nkernels : 1), sizeof *ki);
  ggi_buf c = {0}, h = {0};
  char name[300];
  int rc = ki ? 0 : ggi_fail(d, "out of memory");
  /* the output folder itself may be new; its parent must exist */
  if (rc == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
    rc = ggi_fail(d, "cannot create the output folder %s: %s", dir, strerror(errno));
  for (int t = 0; rc == 0 && t < 2; t++)
    if (m->targets & targets[t]) rc = ggi_render_source(m, targets[t], templates_dir, &src[t], d);
  for (int i = 0; rc == 0 && i < m->nkernels; i++) rc = kernel_info(m, &m->kernels[i], &ki[i], d);
  if (rc == 0) rc = write_module_c(&c, m, src[0], src[1], ki, d);
  if (rc == 0 && (!ggi_buf_ok(&c) || write_module_h(&h, m, ki) != 0))
    rc = ggi_fail(d, "out of memory writing module %s", m->name);
  for (int t = 0; rc == 0 && t < 2; t++) {
    if (!src[t]) continue;
    snprintf(name, sizeof name, "%s.%s", m->name, ext[t]);
    rc = write_atomic(dir, name, src[t], d);
  }
  if (rc == 0) {
    snprintf(name, sizeof name, "%s.c", m->name);
    rc = write_atomic(dir, name, c.p, d);
  }
  if (rc == 0) {
    snprintf(name, sizeof name, "%s.h", m->name);
    rc = write_atomic(dir, name, h.p, d);
  }
  free(src[0]);
  free(src[1]);
  free(ki);
  ggi_buf_free(&c);
  ggi_buf_free(&h);
  return rc;
}

/* ---- list and explain ---- */

static void targets_str(ggi_buf *b, unsigned t)
{
  ggi_buf_printf(b, "%s%s%s", (t & GGI_TARGET_CUDA) ? "cuda" : "",
                 (t & GGI_TARGET_CUDA) && (t & GGI_TARGET_HIP) ? "," : "",
                 (t & GGI_TARGET_HIP) ? "hip" : "");
}

int ggi_list(const ggi_module *m, FILE *out, ggi_diag *d)
{
  ggi_buf b = {0};
  for (int i = 0; i < m->nkernels; i++) {
    const ggi_kernel *k = &m->kernels[i];
    if (k->pattern == GG_PATTERN_FRAME) {
      ggi_buf_printf(&b, "frame       %-20s %-12s %-12s ", k->name, "frame", "persistent");
      ggi_frame_summary(k, &b);
      ggi_buf_puts(&b, "\n");
      continue;
    }
    ggi_buf_printf(&b, "kernel      %-20s %-12s %-12s %-14s block %-5d ", k->name,
                   pattern_name(k->pattern),
                   k->launch == GG_LAUNCH_COOPERATIVE ? "cooperative" : "classic",
                   is_reduce_like(k) ? strategy_name(k->spec.strategy) : "-", k->spec.block);
    targets_str(&b, k->targets);
    ggi_buf_puts(&b, "\n");
  }
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    ggi_persistent_shape shape;
    if (ggi_persistent_plan(m, p, &shape, d) != 0) {
      ggi_buf_free(&b);
      return -1;
    }
    ggi_buf_printf(&b, "persistent  %-20s %-12s %-12s %-14s block %-5d ", p->name, "persistent",
                   layout_name(p->layout),
                   p->buffering == 1 ? "single" : p->buffering == 2 ? "double" : "ring",
                   shape.block);
    targets_str(&b, p->targets);
    ggi_buf_printf(&b, "  commands:");
    for (int c = 0; c < p->ncommands; c++) ggi_buf_printf(&b, " %s", p->commands[c]);
    ggi_buf_puts(&b, "\n");
  }
  int rc = ggi_buf_ok(&b) && b.p ? (fputs(b.p, out) < 0 ? -1 : 0) : (ggi_buf_ok(&b) ? 0 : -1);
  if (rc != 0) ggi_fail(d, "%s: cannot write the listing", m->file ? m->file : "?");
  ggi_buf_free(&b);
  return rc;
}

static const char *const access_word[] = {"view, in", "view, out", "view, inout", "view, atomic"};

static const char *grid_rule_text(const ggi_kernel *k, const ggi_plan *p)
{
  switch (p->grid_rule) {
  case GG_GRID_COVER: return "cover: ceil(work / (block * items)) blocks";
  case GG_GRID_LEAGUE: return "league: one block per team";
  case GG_GRID_FIXED: return "fixed";
  default: return "resident: as many blocks as are co-resident on the device";
  }
}

int ggi_explain(const ggi_module *m, const char *kernel, FILE *out, ggi_diag *d)
{
  const ggi_kernel *k = NULL;
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, kernel) == 0) k = &m->kernels[i];
  if (!k) {
    for (int i = 0; i < m->npersistent; i++) {
      const ggi_persistent *p = &m->persistent[i];
      if (strcmp(p->name, kernel) != 0) continue;
      ggi_persistent_shape shape;
      if (ggi_persistent_plan(m, p, &shape, d) != 0) return -1;
      fprintf(out, "persistent %s (%s:%d): symbol gg_persist_%s\n"
                   "  layout %s, block %d, blocks %d%s, groups %d of %d threads, %d frame slot(s)\n"
                   "  commands:",
              p->name, m->file ? m->file : "?", p->line, p->name, layout_name(p->layout),
              shape.block, shape.blocks, shape.blocks == 0 ? " (all co-resident)" : "",
              shape.groups, shape.group_threads, p->buffering);
      for (int c = 0; c < p->ncommands; c++) fprintf(out, " %s", p->commands[c]);
      fprintf(out, "\n  shared memory: %u bytes per block (%u per pseudo-block)\n",
              (unsigned)shape.shared_bytes, (unsigned)shape.group_smem);
      for (int c = 0; c < p->ncommands; c++) {
        const gg_persistent_command *pc = &shape.cmd[c];
        fprintf(out, "  %s: workspace %u bytes + %u per pseudo-block of the virtual grid",
                p->commands[c], (unsigned)pc->ws_fixed, (unsigned)pc->ws_per_block);
        if (pc->min_threads || pc->max_threads)
          fprintf(out, ", %d..%d threads per pseudo-block", pc->min_threads, pc->max_threads);
        fprintf(out, "\n");
        const ggi_kernel *ck = &m->kernels[p->command_index[c]];
        if (ck->pattern == GG_PATTERN_FRAME) {
          ggi_buf fs = {0};
          ggi_frame_summary(ck, &fs);
          fprintf(out, "    frame: %s (a grid barrier at each |)\n", fs.p ? fs.p : "");
          ggi_buf_free(&fs);
        }
      }
      return 0;
    }
    ggi_buf names = {0};
    for (int i = 0; i < m->nkernels; i++) ggi_buf_printf(&names, "%s%s", i ? ", " : "", m->kernels[i].name);
    for (int i = 0; i < m->npersistent; i++)
      ggi_buf_printf(&names, "%s%s", i || m->nkernels ? ", " : "", m->persistent[i].name);
    ggi_fail(d, "%s: no kernel '%s' (kernels: %s)", m->file ? m->file : "?", kernel,
         names.p ? names.p : "none");
    ggi_buf_free(&names);
    return -1;
  }
  kinfo ki;
  if (kernel_info(m, k, &ki, d) != 0) return -1;
  fprintf(out, "%s %s (%s:%d): symbol gg_%s%s, %s, %s launch, targets ",
          k->pattern == GG_PATTERN_FRAME ? "frame" : "kernel", k->name, m->file ? m->file : "?",
          k->line, k->pattern == GG_PATTERN_FRAME ? "frame_" : "", k->name,
          pattern_name(k->pattern),
          k->launch == GG_LAUNCH_COOPERATIVE   ? "cooperative"
          : k->launch == GG_LAUNCH_PERSISTENT ? "persistent (through a session)"
                                              : "classic");
  ggi_buf t = {0};
  targets_str(&t, k->targets);
  fprintf(out, "%s\n", t.p ? t.p : "none");
  ggi_buf_free(&t);
  fprintf(out, "arguments (struct gg_args_%s, %u bytes, align %u), in %s order:\n", k->name,
          ki.lay.size, ki.lay.align,
          k->pattern == GG_PATTERN_FRAME ? "gg_session_start" : "gg_launch");
  int argi = 0;
  for (int i = 0; i < ki.lay.n; i++) {
    const field *f = &ki.lay.f[i];
    char idx[16];
    if (f->kind == GG_PARAM_HIDDEN) snprintf(idx, sizeof idx, "  -");
    else snprintf(idx, sizeof idx, "%3d", argi++);
    fprintf(out, "  %s  %-12s %-24s offset %3u  %s\n", idx, f->name, field_ctype(k, f, m->arena),
            f->offset,
            f->kind == GG_PARAM_HIDDEN ? "hidden, filled by the runtime"
            : f->kind == GG_PARAM_EXTENT ? "run-time extent"
            : f->kind == GG_PARAM_STRIDE ? "element stride"
            : f->kind == GG_PARAM_VIEW ? access_word[k->params[f->param].access]
                                       : "scalar");
  }
  if (k->pattern == GG_PATTERN_FRAME) {
    ggi_frame_explain(m, k, out);
    return 0;
  }
  fprintf(out, "specialization: block %d, items %d, vector %d", k->spec.block, k->spec.items,
          k->spec.vector);
  if (is_reduce_like(k)) fprintf(out, ", strategy %s", strategy_name(k->spec.strategy));
  fprintf(out, "%s\n", k->spec.cas_emulation ? ", CAS emulation" : "");
  for (int i = 0; i < k->spec.n_why && i < 8; i++) fprintf(out, "  why: %s\n", k->spec.why[i]);
  if (ki.plan.nparts == 0) fprintf(out, "template: %s\n", ki.plan.template_path);
  for (int i = 0; i < ki.plan.nparts; i++)
    fprintf(out, "%s%s", i == 0 ? "templates: " : " + ", ki.plan.template_parts[i]);
  if (ki.plan.nparts > 0) fprintf(out, "\n");
  fprintf(out, "grid: %s", grid_rule_text(k, &ki.plan));
  if (ki.plan.grid_rule == GG_GRID_FIXED) fprintf(out, " (%lld blocks)", (long long)ki.plan.grid_fixed);
  fprintf(out, "%s\n", ki.plan.cap_resident && ki.plan.grid_rule != GG_GRID_RESIDENT
                            ? ", capped at the co-resident blocks" : "");
  if (ki.plan.small_block > 0)
    fprintf(out, "small work: up to %lld elements run %d-thread blocks\n",
            (long long)ki.plan.small_work, ki.plan.small_block);
  fprintf(out, "shared memory: %u bytes per block\n", (unsigned)ki.plan.shared_bytes);
  fprintf(out, "workspace: %u bytes + %u per block\n", (unsigned)ki.plan.ws_fixed,
          (unsigned)ki.plan.ws_per_block);
  ggi_buf fb = {0};
  put_features(&fb, ki.plan.features);
  fprintf(out, "features: %s\n", fb.p ? fb.p : "0");
  ggi_buf_free(&fb);
  return 0;
}
