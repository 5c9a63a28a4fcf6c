/*
 * load_kernel.c - a `kernel` declaration into a ggi_kernel: its params,
 * types and extents, range and index, the pattern's fields (reduction,
 * team, body) and knobs, each checked with "file:line:" on the first
 * mistake.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lauxlib.h>
#include <lua.h>

#include "loader.h"
#include "body_check.h"

#include "names.h"
#include "patterns.h"
#include "vocab.h"

/* Fields each declaration accepts.  kernel_fields is the union, used for
 * "did you mean"; each pattern's row (patterns.c) says which apply to it. */
static const char *const param_fields[] = {"access", "layout", "space", "halo", NULL};
static const char *const kernel_fields[] = {
  "pattern", "range", "index", "params", "body", "block", "items", "vector", "launch",
  "value", "op", "combine", "identity", "into", "type", "strategy", "allow_cas", "kind",
  "tile", "league", "team_size", "scratch", "size", "a", "b", "c", "op_a", "op_b", "alpha",
  "beta", "direction", "input", "output", "post", "between", NULL};

/* Extents as written in a view type ("n", "32") or a range entry. */
static ggi_extent parse_extent_text(ggi_decl *k, int line, const char *view, const char *e) {
  ggi_extent x = {NULL, 0};
  if (isdigit((unsigned char)e[0]) || e[0] == '-' || e[0] == '+') {
    char *end;
    errno = 0;
    long long v = strtoll(e, &end, 10);
    if (*end || (errno && errno != ERANGE)) ggi_decl_fail(k, line, "view \"%s\": extent \"%s\" is not a number or a name", view, e);
    if (v <= 0 && errno != ERANGE) ggi_decl_fail(k, line, "view \"%s\": extent %lld must be positive", view, v);
    if (errno == ERANGE || v > GGI_MAX_STATIC)
      ggi_decl_fail(k, line, "view \"%s\": extent %s is too large; a static extent is at most " GGI_MAX_STATIC_TEXT, view, e);
    x.value = v;
    return x;
  }
  ggi_check_name(k, line, "extent", e);
  x.name = ggi_load_strdup(k->c, e);
  return x;
}

/* unit times the static ones of ext[0..n), each at most GGI_MAX_STATIC;
 * fails at line when the product passes GGI_MAX_STATIC. */
static int64_t static_product(ggi_decl *k, int line, const ggi_extent *ext, int n, int64_t unit,
                              const char *what) {
  int64_t p = unit;
  for (int i = 0; i < n; i++) {
    if (ext[i].name) continue;
    if (ext[i].value > GGI_MAX_STATIC / p)
      ggi_decl_fail(k, line, "%s: its static extents make more than " GGI_MAX_STATIC_TEXT " %s, the limit "
            "for sizes known when the kernel is generated", what, unit > 1 ? "bytes" : "indices");
    p *= ext[i].value;
  }
  return p;
}

/* The element type a C or CUDA type name most likely means, for "did
 * you mean": the name as written before any '[' (n bytes), case ignored. */
static const char *dtype_for_c_name(const char *s, size_t n) {
  static const char *const table[][2] = {
    {"double", "f64"}, {"float", "f32"}, {"int", "i32"}, {"int32_t", "i32"}, {"signed", "i32"},
    {"unsigned", "u32"}, {"unsigned int", "u32"}, {"uint32_t", "u32"}, {"uint", "u32"},
    {"long", "i64"}, {"long long", "i64"}, {"long int", "i64"}, {"int64_t", "i64"},
    {"ssize_t", "i64"}, {"ptrdiff_t", "i64"}, {"unsigned long", "u64"},
    {"unsigned long long", "u64"}, {"uint64_t", "u64"}, {"size_t", "u64"}, {"half", "f16"},
    {"__half", "f16"}, {"float16", "f16"}, {"_float16", "f16"}, {"bfloat16", "bf16"},
    {"__bf16", "bf16"}, {"__nv_bfloat16", "bf16"}, {"hip_bfloat16", "bf16"},
    {"i32", "i32"}, {"u32", "u32"}, {"i64", "i64"}, {"u64", "u64"}, {"f32", "f32"},
    {"f64", "f64"}, {"f16", "f16"}, {"bf16", "bf16"}, /* in another case: "F32" */
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strlen(table[i][0]) == n && strncasecmp(table[i][0], s, n) == 0) return table[i][1];
  return NULL;
}

/* "f32[n][4]" -> dtype, rank, extents. */
static void parse_type(ggi_decl *k, int line, const char *view, const char *s, ggi_param *p) {
  char buf[256];
  const char *br = strchr(s, '[');
  size_t n = br ? (size_t)(br - s) : strlen(s);
  if (n >= 16) n = 15;
  memcpy(buf, s, n);
  buf[n] = 0;
  int dt = ggi_find_name(ggi_dtype_names, buf);
  char all[128];
  const char *mean = dt < 0 ? dtype_for_c_name(s, br ? (size_t)(br - s) : strlen(s)) : NULL;
  if (mean)
    ggi_decl_fail(k, line, "\"%s\": unknown type \"%s\" (did you mean %s?); element types are %s", view,
          buf, mean, ggi_join_names(ggi_dtype_names, all, sizeof all));
  if (dt < 0)
    ggi_decl_fail(k, line, "\"%s\": unknown type \"%s\"; element types are %s", view, buf,
          ggi_join_names(ggi_dtype_names, all, sizeof all));
  p->dtype = (gg_dtype)dt;
  p->rank = 0;
  while (br && *br == '[') {
    const char *close = strchr(br, ']');
    if (!close || close - br - 1 <= 0 || close - br - 1 >= 64)
      ggi_decl_fail(k, line, "\"%s\": type \"%s\" is malformed; write a type and up to 3 extents, e.g. \"f32[n][4]\"", view, s);
    if (p->rank == GGI_MAX_RANK)
      ggi_decl_fail(k, line, "\"%s\": type \"%s\" has rank > 3; views have 1 to 3 extents", view, s);
    memcpy(buf, br + 1, (size_t)(close - br - 1));
    buf[close - br - 1] = 0;
    p->ext[p->rank++] = parse_extent_text(k, line, view, buf);
    br = close + 1;
  }
  if (br && *br)
    ggi_decl_fail(k, line, "\"%s\": type \"%s\" is malformed; write a type and up to 3 extents, e.g. \"f32[n][4]\"", view, s);
  p->kind = p->rank ? GG_PARAM_VIEW : GG_PARAM_SCALAR;
  char what[96];
  snprintf(what, sizeof what, "view \"%.64s\"", view);
  static_product(k, line, p->ext, p->rank, (int64_t)ggi_dtype_size((gg_dtype)dt), what);
}

/* Run-time extents become i64 parameters, in order of first use. */
static void add_extent(ggi_kernel *kn, const char *name, int cap) {
  for (int i = 0; i < kn->nextents; i++)
    if (strcmp(kn->extents[i], name) == 0) return;
  if (kn->nextents < cap) kn->extents[kn->nextents++] = name;
}

const ggi_param *ggi_find_param(const ggi_kernel *kn, const char *name) {
  for (int i = 0; i < kn->nparams; i++)
    if (strcmp(kn->params[i].name, name) == 0) return &kn->params[i];
  return NULL;
}

int ggi_same_extent(ggi_extent a, ggi_extent b) {
  if (a.name || b.name) return a.name && b.name && strcmp(a.name, b.name) == 0;
  return a.value == b.value;
}

const char *ggi_extent_text(ggi_extent e, char *buf, size_t n) {
  if (e.name) snprintf(buf, n, "%s", e.name);
  else snprintf(buf, n, "%lld", (long long)e.value);
  return buf;
}

/* ------------------------------------------------------------------ */
/* params and scratch                                                  */

/* One { "name", "type", access = ..., ... } entry at the top of the stack. */
static void read_param(ggi_decl *k, int idx, size_t *pos, int params_line, int scratch, ggi_param *p) {
  lua_State *L = k->c->L;
  const char *list = scratch ? "scratch" : "params";
  if (lua_type(L, -1) != LUA_TTABLE)
    ggi_decl_fail(k, params_line, "%s[%d] must be a table { \"name\", \"type\", ... }, got %s", list, idx, luaL_typename(L, -1));
  ggi_decl e = *k;
  e.t = lua_gettop(L);
  int n1 = lua_rawgeti(L, e.t, 1), n2 = lua_rawgeti(L, e.t, 2);
  if (n1 != LUA_TSTRING || n2 != LUA_TSTRING)
    ggi_decl_fail(k, params_line, "%s[%d] must start with a name and a type, as in { \"x\", \"f32[n]\" }", list, idx);
  const char *name = ggi_to_cstring(k, -2, params_line, "a parameter name");
  const char *type = ggi_to_cstring(k, -1, params_line, "a parameter type");
  lua_pop(L, 2);
  size_t at = ggi_quoted_pos(k->c, *pos, k->end, name);
  int line = at == (size_t)-1 ? params_line : ggi_line_of(k->c, at);
  if (at != (size_t)-1) *pos = at + 1;
  p->name = name;
  p->line = line;
  ggi_check_name(k, line, "parameter", name);
  /* the entry's own fields: [1], [2], access, layout, space */
  lua_pushnil(L);
  while (lua_next(L, e.t)) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) == LUA_TNUMBER && isint && (i == 1 || i == 2)) continue;
    if (lua_type(L, -1) == LUA_TNUMBER) {
      lua_pushvalue(L, -1);
      ggi_decl_fail(k, line, "\"%s\": unexpected list entry [%s]; write access = ..., layout = ..., space = ...", name,
            lua_tostring(L, -1));
    }
    if (lua_type(L, -1) != LUA_TSTRING) ggi_decl_fail(k, line, "\"%s\": field names must be strings", name);
    const char *key = lua_tostring(L, -1);
    if (scratch || ggi_find_name(param_fields, key) < 0) {
      const char *near = scratch ? NULL : ggi_closest(param_fields, key);
      char buf[128];
      if (near) ggi_decl_fail(k, line, "\"%s\": unknown field '%s' (did you mean '%s'?)", name, key, near);
      ggi_decl_fail(k, line, "\"%s\": unknown field '%s'; allowed: %s", name, key,
            scratch ? "none (scratch entries are { \"name\", \"type[extents]\" })" : ggi_join_names(param_fields, buf, sizeof buf));
    }
  }
  parse_type(k, line, name, type, p);
  if (p->kind == GG_PARAM_SCALAR) {
    for (int i = 0; param_fields[i]; i++) {
      int t = ggi_push_field(&e, param_fields[i]);
      lua_pop(L, 1);
      if (t != LUA_TNIL)
        ggi_decl_fail(k, line, "\"%s\": field '%s' applies to views only; \"%s\" is a scalar", name, param_fields[i], type);
    }
    return;
  }
  e.line = line;
  snprintf(e.what, sizeof e.what, "%.90s: \"%.64s\"", k->what, name);
  /* one line per entry is usual; keep field lookups to it */
  e.end = line;
  p->access = (gg_access)ggi_opt_enum(&e, "access", ggi_access_names, GG_ACCESS_IN);
  p->layout = (gg_layout)ggi_opt_enum(&e, "layout", ggi_layout_names, GG_LAYOUT_RIGHT);
  p->space = (gg_space)ggi_opt_enum(&e, "space", ggi_space_names, GG_SPACE_DEVICE);
  /* the runtime refuses a host array for every view: no kernel reads it */
  if (p->space == GG_SPACE_HOST)
    ggi_decl_fail(k, line, "\"%s\": space = \"host\" is pinned host memory, the fast end of "
          "copies, which no kernel can read; a view is \"device\", \"mapped\" (host memory "
          "the kernel reads over the bus) or \"managed\"", name);
  int64_t h;
  if (ggi_opt_int(&e, "halo", &h)) {
    if (h < 1 || h > GGI_MAX_HALO)
      ggi_decl_fail(k, line, "\"%s\": halo = %lld; a halo is an integer 1..%d (the body touches the "
            "view only within [i - halo, i + halo] of its own index i)", name, (long long)h, GGI_MAX_HALO);
    p->halo = (int)h;
  }
  if (scratch) p->access = GG_ACCESS_INOUT;
}

ggi_param *ggi_read_params(ggi_decl *k, const char *f, int *count, int scratch) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, f);
  int line = ggi_field_line(k, f);
  *count = 0;
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return NULL;
  }
  int n = ggi_list_len(k, f, line);
  char flat[600];
  if (ggi_flat_params(L, -1, f, flat, sizeof flat)) ggi_decl_fail(k, line, "%s", flat);
  ggi_param *ps = ggi_load_alloc(k->c, sizeof *ps * (size_t)(n ? n : 1));
  size_t pos = ggi_line_pos(k->c, line);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    read_param(k, i + 1, &pos, line, scratch, &ps[i]);
    lua_pop(L, 1);
    for (int j = 0; j < i; j++)
      if (strcmp(ps[j].name, ps[i].name) == 0)
        ggi_decl_fail(k, ps[i].line, "duplicate name \"%s\" in %s (first at line %d)", ps[i].name, f, ps[j].line);
  }
  lua_pop(L, 1);
  *count = n;
  return ps;
}

/* ------------------------------------------------------------------ */
/* a kernel                                                            */

static void read_range(ggi_decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "range");
  int line = ggi_field_line(k, "range");
  if (t == LUA_TNIL)
    ggi_decl_fail(k, k->line, "field 'range' is missing; pattern \"%s\" needs range = { extent, ... } (1 to 3 names or integers)",
          ggi_pattern_names[kn->pattern]);
  int n = ggi_list_len(k, "range", line);
  if (n < 1 || n > GGI_MAX_RANK) ggi_decl_fail(k, line, "field 'range' must have 1 to 3 extents, got %d", n);
  for (int i = 0; i < n; i++) {
    int ti = lua_rawgeti(L, -1, i + 1), isint = 0;
    if (ti == LUA_TSTRING) {
      const char *s = ggi_to_cstring(k, -1, line, "range");
      ggi_check_name(k, line, "range extent", s);
      kn->range[i].name = s;
    } else if (ti == LUA_TNUMBER) {
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint) ggi_decl_fail(k, line, "range[%d] must be an integer or a name, got a fractional number", i + 1);
      if (v <= 0) ggi_decl_fail(k, line, "range[%d] must be positive, got %lld", i + 1, (long long)v);
      if (v > GGI_MAX_STATIC)
        ggi_decl_fail(k, line, "range[%d] is %lld; a static extent is at most " GGI_MAX_STATIC_TEXT, i + 1, (long long)v);
      kn->range[i].value = v;
    } else {
      ggi_decl_fail(k, line, "range[%d] must be an extent name or an integer, got %s", i + 1, lua_typename(L, ti));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  kn->rank = n;
  static_product(k, line, kn->range, n, 1, "field 'range'");
}

static void read_index(ggi_decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  static const char *const dflt[] = {"i", "j", "k"};
  for (int i = 0; i < GGI_MAX_RANK; i++) kn->index[i] = dflt[i];
  int t = ggi_push_field(k, "index");
  int line = ggi_field_line(k, "index");
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  int n = ggi_list_len(k, "index", line);
  if (n != kn->rank) ggi_decl_fail(k, line, "field 'index' names %d indices but the range has rank %d", n, kn->rank);
  for (int i = 0; i < n; i++) {
    if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) ggi_decl_fail(k, line, "index[%d] must be a name", i + 1);
    kn->index[i] = ggi_to_cstring(k, -1, line, "index");
    ggi_check_name(k, line, "index", kn->index[i]);
    lua_pop(L, 1);
    for (int j = 0; j < i; j++)
      if (strcmp(kn->index[j], kn->index[i]) == 0) ggi_decl_fail(k, line, "duplicate name \"%s\" in index", kn->index[i]);
  }
  lua_pop(L, 1);
}

/* value = "expr" or { "expr1", "expr2", ... } */
static void read_values(ggi_decl *k, ggi_kernel *kn, int max) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "value");
  int line = ggi_field_line(k, "value");
  kn->value_line = ggi_text_line(k, "value");
  if (t == LUA_TNIL)
    ggi_decl_fail(k, k->line, "field 'value' is missing; pattern \"%s\" needs value = \"expression in %s\"",
          ggi_pattern_names[kn->pattern], kn->index[0]);
  if (t == LUA_TSTRING) {
    kn->nvalues = 1;
    kn->values[0] = ggi_to_cstring(k, -1, line, "field 'value'");
  } else if (t == LUA_TTABLE) {
    int n = ggi_list_len(k, "value", line);
    if (n < 1 || n > max)
      ggi_decl_fail(k, line, "field 'value' must hold 1 to %d expressions for pattern \"%s\", got %d", max,
            ggi_pattern_names[kn->pattern], n);
    for (int i = 0; i < n; i++) {
      if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) ggi_decl_fail(k, line, "value[%d] must be a string expression", i + 1);
      kn->values[i] = ggi_to_cstring(k, -1, line, "field 'value'");
      lua_pop(L, 1);
    }
    kn->nvalues = n;
  } else {
    ggi_decl_fail(k, line, "field 'value' must be a string expression or a list of them, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  for (int i = 0; i < kn->nvalues; i++)
    if (!kn->values[i][strspn(kn->values[i], " \t\r\n")]) ggi_decl_fail(k, line, "field 'value' is empty");
}

/* identity = "0" or 0: kept as text for the templates.  A number becomes a
 * C literal every compiler reads the same way: +-math.huge the prelude's
 * (+-GG_INF) (*infinite set), the most negative integer an expression
 * (its digits alone are no long long literal); NaN is no identity. */
/* A numeric identity, for the check against the accumulator type. */
typedef struct ident_num {
  int kind; /* 0: none or text, 1: integer i, 2: finite float f, 3: infinite */
  long long i;
  double f;
} ident_num;

static const char *read_identity(ggi_decl *k, ident_num *num) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "identity");
  int line = ggi_field_line(k, "identity");
  const char *s = NULL;
  char buf[64];
  num->kind = 0;
  if (t == LUA_TNUMBER) {
    if (lua_isinteger(L, -1)) {
      num->kind = 1, num->i = (long long)lua_tointeger(L, -1);
      ggi_int_literal(num->i, "", buf, sizeof buf);
    } else {
      double v = (double)lua_tonumber(L, -1);
      if (isnan(v))
        ggi_decl_fail(k, line, "field 'identity' is NaN (0/0), which is no identity: combine(NaN, a) is not a; "
              "give a number x with combine(x, a) == a");
      if (isinf(v)) {
        num->kind = 3;
        snprintf(buf, sizeof buf, "%s", v > 0 ? "(GG_INF)" : "(-GG_INF)");
      } else {
        num->kind = 2, num->f = v;
        ggi_float_literal(v, buf, sizeof buf);
      }
    }
    s = ggi_load_strdup(k->c, buf);
  } else if (t == LUA_TSTRING) {
    s = ggi_to_cstring(k, -1, line, "field 'identity'");
  } else if (t != LUA_TNIL) {
    ggi_decl_fail(k, line, "field 'identity' must be a number or a string, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  return s;
}

static void read_op(ggi_decl *k, ggi_kernel *kn, ident_num *num) {
  kn->combine = ggi_opt_string(k, "combine");
  kn->combine_line = ggi_field_line(k, "combine");
  kn->identity = read_identity(k, num);
  kn->identity_line = ggi_field_line(k, "identity");
  int has_op = ggi_push_field(k, "op") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  if (kn->combine) {
    if (has_op) ggi_decl_fail(k, ggi_field_line(k, "op"), "give either op or combine, not both");
    if (!kn->identity)
      ggi_decl_fail(k, ggi_field_line(k, "combine"), "field 'identity' is missing; combine = \"...\" needs identity = the value x with combine(x, a) == a");
    kn->op = GGI_OP_CUSTOM;
    for (int i = 0; i < GGI_MAX_VALUES; i++) kn->ops[i] = GGI_OP_CUSTOM;
    return;
  }
  if (kn->identity) ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' goes with combine; op \"...\" has its own");
  if (ggi_push_field(k, "op") == LUA_TTABLE) {
    /* op = { "min", "max" }: one operator per value, in value order */
    int line = ggi_field_line(k, "op"), n = ggi_list_len(k, "op", line);
    if (!ggi_pattern_is(kn, GGI_PAT_OP_LIST))
      ggi_decl_fail(k, line, "field 'op' must be a string for pattern \"%s\" (a list of operators, one per value, is for patterns \"reduce\", \"team\" and \"fft\")",
            ggi_pattern_names[kn->pattern]);
    if (n != kn->nvalues && ggi_pattern_is(kn, GGI_PAT_CONTRIBUTE))
      ggi_decl_fail(k, line, "field 'op' lists %d operators but 'into' has %d elements: give one operator per element (value), or one string for all",
            n, kn->nvalues);
    if (n != kn->nvalues)
      ggi_decl_fail(k, line, "field 'op' lists %d operator%s but 'value' has %d expression%s: give one operator per value, or one string for all",
            n, n == 1 ? "" : "s", kn->nvalues, kn->nvalues == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
      char buf[256];
      int t = lua_rawgeti(k->c->L, -1, i + 1);
      int o = t == LUA_TSTRING ? ggi_find_name(ggi_op_names, lua_tostring(k->c->L, -1)) : -1;
      if (o < 0 && t == LUA_TSTRING)
        ggi_decl_fail(k, line, "op[%d] must be one of %s, got \"%s\"", i + 1, ggi_join_names(ggi_op_names, buf, sizeof buf),
              ggi_to_cstring(k, -1, line, "field 'op'"));
      if (o < 0) ggi_decl_fail(k, line, "op[%d] must be one of %s, got %s", i + 1, ggi_join_names(ggi_op_names, buf, sizeof buf),
                       lua_typename(k->c->L, t));
      kn->ops[i] = (ggi_op)o;
      lua_pop(k->c->L, 1);
    }
    lua_pop(k->c->L, 1);
    kn->op = kn->ops[0];
    return;
  }
  lua_pop(k->c->L, 1);
  kn->op = (ggi_op)ggi_opt_enum(k, "op", ggi_op_names, GGI_OP_SUM);
  for (int i = 0; i < GGI_MAX_VALUES; i++) kn->ops[i] = kn->op;
}

/* The view `into` names, checked for access. */
static const ggi_param *read_into(ggi_decl *k, ggi_kernel *kn) {
  int line = ggi_field_line(k, "into");
  kn->into = ggi_opt_string(k, "into");
  if (!kn->into) ggi_decl_fail(k, k->line, "field 'into' is missing; name the out/inout view that receives the result");
  const ggi_param *p = ggi_find_param(kn, kn->into);
  if (!p || p->kind != GG_PARAM_VIEW)
    ggi_decl_fail(k, line, "field 'into' must name a view parameter with access \"out\" or \"inout\"; \"%s\" is %s",
          kn->into, p ? "a scalar" : "not a parameter");
  if (p->access != GG_ACCESS_OUT && p->access != GG_ACCESS_INOUT)
    ggi_decl_fail(k, line, "field 'into': view \"%s\" has access \"%s\"; the result view needs access = \"out\" or \"inout\"",
          kn->into, ggi_access_names[p->access]);
  if (p->rank != 1) ggi_decl_fail(k, line, "field 'into': view \"%s\" must have rank 1, got rank %d", kn->into, p->rank);
  return p;
}

/* What extent `into` must have: one element per value (reduce), the
 * range's (scan), one element per tile (tile_reduce). */
typedef void (*check_into_fn)(ggi_decl *k, ggi_kernel *kn, const ggi_param *into);

static void check_reduce_into(ggi_decl *k, ggi_kernel *kn, const ggi_param *into) {
  char a[64];
  ggi_extent want = {NULL, kn->nvalues};
  if (!ggi_same_extent(into->ext[0], want))
    ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': view \"%s\" must have extent [%d] (one element per value), got [%s]",
          kn->into, kn->nvalues, ggi_extent_text(into->ext[0], a, sizeof a));
}

static void check_scan_into(ggi_decl *k, ggi_kernel *kn, const ggi_param *into) {
  char a[64], b[64];
  ggi_extent n = kn->range[0];
  if (!ggi_same_extent(into->ext[0], n))
    ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': view \"%s\" must have the range's extent [%s], got [%s]", kn->into,
          ggi_extent_text(n, b, sizeof b), ggi_extent_text(into->ext[0], a, sizeof a));
}

static void check_tile_into(ggi_decl *k, ggi_kernel *kn, const ggi_param *into) {
  int line = ggi_field_line(k, "into");
  char a[64];
  ggi_extent n = kn->range[0];
  if (!n.name) {
    int64_t tiles = (n.value + kn->tile - 1) / kn->tile;
    if (into->ext[0].name || into->ext[0].value != tiles)
      ggi_decl_fail(k, line, "field 'into': view \"%s\" must have extent [%lld] = ceil(%lld / tile %d), got [%s]",
            kn->into, (long long)tiles, (long long)n.value, kn->tile, ggi_extent_text(into->ext[0], a, sizeof a));
  } else if (!into->ext[0].name || strcmp(into->ext[0].name, n.name) == 0) {
    ggi_decl_fail(k, line, "field 'into': view \"%s\" must have a run-time extent of its own (= ceil(%s / %d), "
          "e.g. \"f32[ntiles]\"), got [%s]", kn->into, n.name, kn->tile, ggi_extent_text(into->ext[0], a, sizeof a));
  }
}

static void read_acc_type(ggi_decl *k, ggi_kernel *kn, const ggi_param *into, const ident_num *num);

static void read_reduction(ggi_decl *k, ggi_kernel *kn, int max_values, check_into_fn check_into,
                           int has_strategy) {
  read_values(k, kn, max_values);
  ident_num num = {0};
  read_op(k, kn, &num);
  const ggi_param *into = read_into(k, kn);
  check_into(k, kn, into);
  read_acc_type(k, kn, into, &num);
  if (!has_strategy) return;
  kn->strategy = (ggi_strategy)ggi_opt_enum(k, "strategy", ggi_strategy_names, GGI_STRAT_AUTO);
  kn->allow_cas = ggi_opt_bool(k, "allow_cas");
  int atomic = kn->strategy == GGI_STRAT_GLOBAL_ATOMIC || kn->strategy == GGI_STRAT_SHARED_ATOMIC;
  if (atomic && ggi_ops_mixed(kn))
    ggi_decl_fail(k, ggi_field_line(k, "strategy"), "strategy \"%s\" merges every value with one atomic operator, but 'op' "
          "lists different ones: use strategy warp_shuffle, shared_tree, cg_tile, grid_sync or deterministic "
          "(or auto), or one operator for all values", ggi_strategy_names[kn->strategy]);
  if (atomic && ggi_atomic_needs_cas(kn->op, kn->acc_type, into->dtype, kn->targets)) {
    if (!kn->allow_cas)
      ggi_decl_fail(k, ggi_field_line(k, "strategy"), "strategy \"%s\" with op \"%s\" on %s needs a compare-and-swap loop "
            "(the target has no such atomic): set strategy = \"warp_shuffle\" (or shared_tree, "
            "deterministic), or allow_cas = true",
            ggi_strategy_names[kn->strategy], kn->op == GGI_OP_CUSTOM ? "combine" : ggi_op_names[kn->op],
            ggi_dtype_names[into->dtype == GG_F16 || into->dtype == GG_BF16 ? into->dtype : kn->acc_type]);
    kn->spec.cas_emulation = 1;
  }
}

/* type = ..., or into's type (f32 for f16/bf16 outputs). */
static void read_acc_type(ggi_decl *k, ggi_kernel *kn, const ggi_param *into, const ident_num *num) {
  static const char *const acc_names[] = {"i32", "u32", "i64", "u64", "f32", "f64", NULL};
  /* an fft's field type is its transform's: its accumulator is into's */
  int acc = kn->pattern == GG_PATTERN_FFT ? -1 : ggi_opt_enum(k, "type", acc_names, -1);
  if (acc >= 0) kn->acc_type = (gg_dtype)acc;
  else if (into->dtype == GG_F16 || into->dtype == GG_BF16) kn->acc_type = GG_F32; /* half sums lose too much */
  else kn->acc_type = into->dtype;
  int integer = kn->acc_type != GG_F32 && kn->acc_type != GG_F64;
  if (num->kind == 3 && integer)
    ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' is infinite, but the accumulator type %s is "
          "an integer: give a finite identity, or type = \"f32\" or \"f64\"", ggi_dtype_names[kn->acc_type]);
  if (!integer || (num->kind != 1 && num->kind != 2)) return;
  /* an integer accumulator takes what converts to it exactly: integers of
     its range, and for unsigned ones negatives down to -2^31 / -2^63,
     which wrap as in C (-1 is all ones, min's identity) */
  static const double lo[] = {[GG_I32] = -0x1p31, [GG_U32] = -0x1p31, [GG_I64] = -0x1p63,
                               [GG_U64] = -0x1p63};
  static const double hi[] = {[GG_I32] = 0x1p31, [GG_U32] = 0x1p32, [GG_I64] = 0x1p63,
                               [GG_U64] = 0x1p64}; /* exclusive */
  const gg_dtype t = kn->acc_type;
  const double v = num->kind == 1 ? (double)num->i : num->f;
  char text[48];
  if (num->kind == 1) snprintf(text, sizeof text, "%lld", num->i);
  else snprintf(text, sizeof text, "%.17g", num->f);
  if (num->kind == 2 && v != floor(v))
    ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' = %s is no integer, but the "
          "accumulator type %s is: give an integer, or type = \"f32\" or \"f64\"", text,
          ggi_dtype_names[t]);
  static const char *const range[] = {
      [GG_I32] = "-2147483648 to 2147483647",
      [GG_U32] = "0 to 4294967295, or an integer down to -2147483648, which wraps as in C: -1 is "
                 "all ones",
      [GG_I64] = "-2^63 to 2^63 - 1",
      [GG_U64] = "0 to 2^64 - 1, or a negative integer, which wraps as in C: -1 is all ones"};
  const int unsigned_float = num->kind == 2 && (t == GG_U32 || t == GG_U64) && v < 0;
  if (t <= GG_U64 && (v < lo[t] || v >= hi[t] || unsigned_float) &&
      !(num->kind == 1 && (t == GG_I64 || t == GG_U64)))
    ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' = %s is outside what %s "
          "holds (%s): give an identity the accumulator holds", text, ggi_dtype_names[t],
          range[t]);
}

/* combine and identity are one-line expressions that gpugen pastes into
 * code of its own (a #define GG_COMBINE(a, b), an identity() function)
 * where no parameter is in scope: one line, closed brackets, literals
 * and comments, and no parameter's name. */
static void check_expr_field(ggi_decl *k, const ggi_kernel *kn, const char *f, const char *text,
                             const char *what) {
  if (!text) return;
  int line = ggi_field_line(k, f), at;
  char why[600];
  if (strpbrk(text, "\n\r"))
    ggi_decl_fail(k, line, "field '%s' is one line: %s", f, what);
  /* a // comment, a '#' or a '\' would reach past it (into gpugen's
     #define or the line after) */
  if (strstr(text, "//") || strpbrk(text, "#\\"))
    ggi_decl_fail(k, line, "field '%s' holds %s: it is %s, without comments, '#' or '\\'", f,
          strstr(text, "//") ? "a // comment" : strchr(text, '#') ? "a '#'" : "a '\\'", what);
  if (ggi_text_check(text, line, f, kn->targets, &at, why, sizeof why)) ggi_decl_fail(k, at, "%s", why);
  int combine = strcmp(f, "combine") == 0;
  for (int i = 0; i < kn->nparams; i++)
    if ((!combine || (strcmp(kn->params[i].name, "a") && strcmp(kn->params[i].name, "b"))) &&
        ggi_text_names(text, kn->params[i].name))
      ggi_decl_fail(k, line, "field '%s' names parameter \"%s\": it is %s, evaluated where no "
            "parameter is in scope", f, kn->params[i].name, what);
}

/* Every contribute(...) call in text (field `field`) passes one value
 * per element of into: the compiler would say so only in a static_assert
 * deep in the generated source. */
static void check_contribute_calls(ggi_decl *k, const ggi_kernel *kn, const char *text, int line,
                                   const char *field) {
  int lines, got = ggi_call_arity(text, "contribute", kn->nvalues, &lines);
  if (got >= 0)
    ggi_decl_fail(k, line + lines, "field '%s': contribute() takes one value per element of into "
          "\"%s\" (%d), got %d", field, kn->into, kn->nvalues, got);
}

/* A team kernel (or an fft with post) with `into` reduces: any thread of
 * any team may call contribute(v0, ...) (one value per element of into)
 * and the kernel writes the combination of every contribution into
 * `into`.  Without `into`, the reduction's fields have nothing to apply
 * to. */
void ggi_read_contributions(ggi_decl *k, ggi_kernel *kn) {
  /* an fft's field type is its transform's (c2c, ...): its accumulator
     is into's type */
  static const char *const needs_into[] = {"op", "combine", "identity", "type", "strategy", NULL};
  const int fft = kn->pattern == GG_PATTERN_FFT;
  const char *what = fft ? "post statements then call" : "body then calls";
  int has_into = ggi_push_field(k, "into") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  if (!has_into) {
    for (int i = 0; needs_into[i]; i++) {
      if (fft && strcmp(needs_into[i], "type") == 0) continue;
      int t = ggi_push_field(k, needs_into[i]);
      lua_pop(k->c->L, 1);
      if (t != LUA_TNIL)
        ggi_decl_fail(k, ggi_field_line(k, needs_into[i]), "field '%s' belongs to a reduction, which also needs "
              "into = \"an out view of 1 to %d elements\" (the %s contribute(v))", needs_into[i],
              GGI_MAX_VALUES, what);
    }
    return;
  }
  const ggi_param *into = read_into(k, kn);
  char a[64];
  if (into->ext[0].name || into->ext[0].value > GGI_MAX_VALUES)
    ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': view \"%s\" must have a static extent of 1 to %d (one "
          "element per value the body contributes), got [%s]", kn->into, GGI_MAX_VALUES,
          ggi_extent_text(into->ext[0], a, sizeof a));
  kn->nvalues = (int)into->ext[0].value;
  check_contribute_calls(k, kn, kn->body, kn->body_line, fft ? "post" : "body");
  if (fft) check_contribute_calls(k, kn, kn->fft_between, kn->fft_between_line, "between");
  ident_num num = {0};
  read_op(k, kn, &num);
  read_acc_type(k, kn, into, &num);
  kn->strategy = (ggi_strategy)ggi_opt_enum(k, "strategy", ggi_strategy_names, GGI_STRAT_AUTO);
  int line = ggi_field_line(k, "strategy");
  switch (kn->strategy) {
  case GGI_STRAT_AUTO: case GGI_STRAT_WARP_SHUFFLE: case GGI_STRAT_SHARED_TREE: case GGI_STRAT_CG_TILE:
    break;
  case GGI_STRAT_DETERMINISTIC:
    if (kn->launch == GG_LAUNCH_COOPERATIVE)
      ggi_decl_fail(k, line, "strategy \"deterministic\" fixes the grid, but launch = \"cooperative\" sizes it to the "
            "co-resident blocks: give one of them");
    break;
  default:
    ggi_decl_fail(k, line, "strategy \"%s\" is not for contribute() (each block combines its threads in shared "
          "memory, the last block combines the blocks): use auto, warp_shuffle, shared_tree, cg_tile or "
          "deterministic", ggi_strategy_names[kn->strategy]);
  }
}

/* Names share one C scope in the generated function: params, run-time
 * extents, indices and scratch must all differ. */
void ggi_check_scope(ggi_decl *k, ggi_kernel *kn) {
  for (int i = 0; i < kn->nextents; i++) {
    const ggi_param *p = ggi_find_param(kn, kn->extents[i]);
    if (p) ggi_decl_fail(k, p->line, "duplicate name \"%s\": it is both a parameter and an extent", p->name);
  }
  for (int r = 0; r < kn->rank; r++) {
    const ggi_param *p = ggi_find_param(kn, kn->index[r]);
    if (p) ggi_decl_fail(k, p->line, "duplicate name \"%s\": it is both a parameter and an index", p->name);
    for (int i = 0; i < kn->nextents; i++)
      if (strcmp(kn->extents[i], kn->index[r]) == 0)
        ggi_decl_fail(k, ggi_field_line(k, "range"), "duplicate name \"%s\": it is both an extent and an index", kn->index[r]);
  }
  for (int s = 0; s < kn->nscratch; s++) {
    const ggi_param *p = ggi_find_param(kn, kn->scratch[s].name);
    if (p) ggi_decl_fail(k, kn->scratch[s].line, "duplicate name \"%s\": it is both a parameter and a scratch view", p->name);
    for (int i = 0; i < kn->nextents; i++)
      if (strcmp(kn->extents[i], kn->scratch[s].name) == 0)
        ggi_decl_fail(k, kn->scratch[s].line, "duplicate name \"%s\": it is both an extent and a scratch view", kn->extents[i]);
  }
}

/* Where a name is declared in the kernel's scope (params, scratch,
 * extents, indices): its line, or 0 when nowhere. */
static int scope_line(ggi_decl *k, const ggi_kernel *kn, const char *name) {
  const ggi_param *p = ggi_find_param(kn, name);
  if (p) return p->line;
  for (int s = 0; s < kn->nscratch; s++)
    if (strcmp(kn->scratch[s].name, name) == 0) return kn->scratch[s].line;
  for (int i = 0; i < kn->nextents; i++)
    if (strcmp(kn->extents[i], name) == 0) return k->line;
  for (int r = 0; r < kn->rank; r++)
    if (kn->index[r] && strcmp(kn->index[r], name) == 0) return ggi_field_line(k, "index");
  return 0;
}

/* Around the body the generated code also declares, for every view V
 * (params and scratch), V_e0.. (its extents) and, for layout "stride",
 * V_s0.. (its strides); no declared name may be one of them. */
static void check_hidden(ggi_decl *k, const ggi_kernel *kn) {
  for (int list = 0; list < 2; list++) {
    const ggi_param *ps = list ? kn->scratch : kn->params;
    int n = list ? kn->nscratch : kn->nparams;
    for (int i = 0; i < n; i++) {
      const ggi_param *v = &ps[i];
      for (int dim = 0; v->kind == GG_PARAM_VIEW && dim < v->rank; dim++)
        for (int stride = 0; stride < 2; stride++) {
          if (stride && v->layout != GG_LAYOUT_STRIDE) continue;
          char h[96];
          snprintf(h, sizeof h, "%s_%c%d", v->name, stride ? 's' : 'e', dim);
          int line = scope_line(k, kn, h);
          if (line)
            ggi_decl_fail(k, line, "name \"%s\" is taken: the generated code declares it for view \"%s\" (its %s "
                  "%d); rename it", h, v->name, stride ? "stride" : "extent", dim);
        }
    }
  }
}

/* Collect run-time extents: range (or league) first, then views in
 * parameter order.  A range name no view uses is most likely a typo. */
void ggi_collect_extents(ggi_decl *k, ggi_kernel *kn) {
  int cap = 3 * kn->nparams + GGI_MAX_RANK + 1;
  kn->extents = ggi_load_alloc(k->c, sizeof(char *) * (size_t)cap);
  for (int r = 0; r < kn->rank; r++)
    if (kn->range[r].name) add_extent(kn, kn->range[r].name, cap);
  if (kn->league.name) add_extent(kn, kn->league.name, cap);
  for (int i = 0; i < kn->nparams; i++)
    for (int r = 0; r < kn->params[i].rank; r++)
      if (kn->params[i].ext[r].name) add_extent(kn, kn->params[i].ext[r].name, cap);
  for (int r = 0; r < kn->rank; r++) {
    const char *n = kn->range[r].name;
    int used = 0;
    for (int i = 0; n && i < kn->nparams; i++)
      for (int e = 0; e < kn->params[i].rank; e++)
        if (kn->params[i].ext[e].name && strcmp(kn->params[i].ext[e].name, n) == 0) used = 1;
    if (n && !used) {
      /* a view extent one or two edits away is most likely what was meant */
      const char *near = NULL, *view = NULL;
      int best = 3;
      for (int i = 0; i < kn->nparams; i++)
        for (int e = 0; e < kn->params[i].rank; e++) {
          const char *x = kn->params[i].ext[e].name;
          int dd = x ? ggi_edit_distance(x, n) : 99;
          if (dd < best && dd < (int)strlen(n)) best = dd, near = x, view = kn->params[i].name;
        }
      if (near)
        ggi_decl_fail(k, ggi_field_line(k, "range"), "range extent \"%s\" is not declared anywhere (did you "
              "mean \"%s\", an extent of view \"%s\"?): no view has it as an extent", n, near,
              view);
      ggi_decl_fail(k, ggi_field_line(k, "range"), "range extent \"%s\" is not declared anywhere: no view has it "
            "as an extent (write it in a view type, e.g. \"f32[%s]\", or use a number)", n, n);
    }
  }
}

void ggi_read_team(ggi_decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "league"), isint = 0;
  int line = ggi_field_line(k, "league");
  if (t == LUA_TNIL) ggi_decl_fail(k, k->line, "field 'league' is missing; pattern \"team\" needs league = number of teams (integer or extent name)");
  if (t == LUA_TSTRING) {
    kn->league.name = ggi_to_cstring(k, -1, line, "field 'league'");
    ggi_check_name(k, line, "league extent", kn->league.name);
  } else if (t == LUA_TNUMBER) {
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint || v <= 0) ggi_decl_fail(k, line, "field 'league' must be a positive integer or an extent name");
    if (v > GGI_MAX_STATIC)
      ggi_decl_fail(k, line, "field 'league' is %lld; a static league is at most " GGI_MAX_STATIC_TEXT " teams", (long long)v);
    kn->league.value = v;
  } else {
    ggi_decl_fail(k, line, "field 'league' must be an integer or an extent name, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  kn->team_size = ggi_opt_range(k, "team_size", 32, 1024, 32); /* 0: gpugen chooses */
  kn->scratch = ggi_read_params(k, "scratch", &kn->nscratch, 1);
  long long bytes = 0;
  for (int s = 0; s < kn->nscratch; s++) {
    ggi_param *p = &kn->scratch[s];
    long long n = ggi_dtype_size(p->dtype);
    if (p->kind != GG_PARAM_VIEW) ggi_decl_fail(k, p->line, "scratch \"%s\" must be a view type, e.g. \"f32[32][32]\"", p->name);
    for (int r = 0; r < p->rank; r++) {
      if (p->ext[r].name)
        ggi_decl_fail(k, p->line, "scratch \"%s\": extent \"%s\" must be a number (scratch memory is sized at compile time)",
              p->name, p->ext[r].name);
      if (p->ext[r].value > GGI_MAX_SCRATCH) n = GGI_MAX_SCRATCH + 1;
      else n *= p->ext[r].value;
      if (n > GGI_MAX_SCRATCH) break;
    }
    bytes += n;
    if (bytes > GGI_MAX_SCRATCH)
      ggi_decl_fail(k, p->line, "field 'scratch' needs more than %d bytes of shared memory per team", GGI_MAX_SCRATCH);
  }
}

static void read_body(ggi_decl *k, ggi_kernel *kn) {
  kn->body = ggi_opt_string(k, "body");
  kn->body_line = ggi_text_line(k, "body");
  if (!kn->body)
    ggi_decl_fail(k, k->line, "field 'body' is missing; pattern \"%s\" needs body = \"CUDA/HIP statements\"",
          ggi_pattern_names[kn->pattern]);
}

static void read_knobs(ggi_decl *k, ggi_kernel *kn) {
  kn->block = ggi_opt_range(k, "block", 32, 1024, 32);
  kn->items = ggi_opt_range(k, "items", 1, 32, 1);
  int64_t v;
  if (ggi_opt_int(k, "vector", &v)) {
    if (v != 1 && v != 2 && v != 4 && v != 8)
      ggi_decl_fail(k, ggi_field_line(k, "vector"), "field 'vector' must be one of 1|2|4|8, got %lld", (long long)v);
    kn->vector = (int)v;
    kn->vector_line = ggi_field_line(k, "vector");
  }
}

static void read_launch(ggi_decl *k, ggi_kernel *kn) {
  int explicit_launch = ggi_push_field(k, "launch") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  kn->launch = (gg_launch_mode)ggi_opt_enum(k, "launch", ggi_launch_names, GG_LAUNCH_CLASSIC);
  if (kn->strategy != GGI_STRAT_GRID_SYNC) return;
  /* a grid-wide barrier only works when every block is resident */
  if (explicit_launch && kn->launch != GG_LAUNCH_COOPERATIVE)
    ggi_decl_fail(k, ggi_field_line(k, "launch"), "strategy \"grid_sync\" needs launch = \"cooperative\" (a grid-wide barrier), got \"%s\"",
          ggi_launch_names[kn->launch]);
  kn->launch = GG_LAUNCH_COOPERATIVE;
}

/* halo = h is for the rank-1 views of a rank-1 for kernel: its own index
 * i is then the linear index the grid-stride loop hands the thread. */
static void check_halos(ggi_decl *k, const ggi_kernel *kn) {
  for (int i = 0; i < kn->nparams; i++) {
    const ggi_param *p = &kn->params[i];
    if (!p->halo) continue;
    if (!ggi_pattern_is(kn, GGI_PAT_HALO))
      ggi_decl_fail(k, p->line, "\"%s\": halo applies to a view of a pattern \"for\" kernel with a "
            "1-D range; this is pattern \"%s\"", p->name, ggi_pattern_names[kn->pattern]);
    if (kn->rank != 1)
      ggi_decl_fail(k, p->line, "\"%s\": halo applies to a view of a pattern \"for\" kernel with a "
            "1-D range (a halo is around one linear index); this range has %d dimensions", p->name,
            kn->rank);
    if (p->rank != 1)
      ggi_decl_fail(k, p->line, "\"%s\": halo applies to a rank-1 view (its index is within halo of "
            "the thread's own index i); \"%s\" has rank %d", p->name, p->name, p->rank);
    if (p->layout == GG_LAYOUT_STRIDE)
      ggi_decl_fail(k, p->line, "\"%s\": halo applies to a contiguous view (layout \"right\" or "
            "\"left\"): with layout \"stride\" a run-time stride moves element i anywhere", p->name);
  }
}

/* range, index and the knobs: the shape of for, reduce, scan and
 * tile_reduce (2-D and 3-D ranges only where the row allows them). */
void ggi_read_range_shape(ggi_decl *k, ggi_kernel *kn) {
  read_range(k, kn);
  read_index(k, kn);
  read_knobs(k, kn);
  if (!ggi_pattern_is(kn, GGI_PAT_RANGE_ND) && kn->rank != 1)
    ggi_decl_fail(k, ggi_field_line(k, "range"), "pattern \"%s\" works on a 1-D range, got rank %d (2-D and 3-D ranges are for patterns \"for\" and \"reduce\")",
          ggi_pattern_names[kn->pattern], kn->rank);
}

void ggi_read_for_rest(ggi_decl *k, ggi_kernel *kn) {
  read_body(k, kn);
  read_launch(k, kn);
}

void ggi_read_team_rest(ggi_decl *k, ggi_kernel *kn) {
  read_body(k, kn);
  read_launch(k, kn);
  ggi_read_contributions(k, kn); /* after launch: deterministic refuses cooperative */
}

void ggi_read_reduce_rest(ggi_decl *k, ggi_kernel *kn) {
  read_reduction(k, kn, GGI_MAX_VALUES, check_reduce_into, 1);
  read_launch(k, kn);
}

void ggi_read_scan_rest(ggi_decl *k, ggi_kernel *kn) {
  kn->scan_kind = (ggi_scan_kind)ggi_opt_enum(k, "kind", ggi_scan_names, GGI_SCAN_INCLUSIVE);
  read_reduction(k, kn, 1, check_scan_into, 0);
  read_launch(k, kn);
}

void ggi_read_tile_rest(ggi_decl *k, ggi_kernel *kn) {
  int64_t t;
  if (!ggi_opt_int(k, "tile", &t)) ggi_decl_fail(k, k->line, "field 'tile' is missing; give elements per tile, 2..1024");
  if (t < 2 || t > 1024) ggi_decl_fail(k, ggi_field_line(k, "tile"), "field 'tile' must be 2..1024, got %lld", (long long)t);
  kn->tile = (int)t;
  read_reduction(k, kn, 1, check_tile_into, 0);
  read_launch(k, kn);
}

/* A kernel declaration: its pattern's row says which fields it takes and
 * reads them (patterns.c); the checks every kernel gets are here. */
void ggi_convert_kernel(ggi_decl *k, ggi_kernel *kn, unsigned targets) {
  char buf[256];
  kn->targets = targets;
  int pt = ggi_opt_enum(k, "pattern", ggi_pattern_names, -1);
  if (pt < 0) ggi_decl_fail(k, k->line, "field 'pattern' is missing; pattern must be one of %s", ggi_join_names(ggi_pattern_names, buf, sizeof buf));
  kn->pattern = (gg_pattern)pt;
  const ggi_pattern_row *row = ggi_pattern_of(kn->pattern);
  snprintf(buf, sizeof buf, "pattern \"%s\"", ggi_pattern_names[pt]);
  ggi_check_fields(k, k->t, row->fields, kernel_fields, buf);

  kn->params = ggi_read_params(k, "params", &kn->nparams, 0);
  row->read_shape(k, kn);
  ggi_collect_extents(k, kn);
  ggi_check_scope(k, kn);
  check_hidden(k, kn);
  check_halos(k, kn);
  if (row->read_rest) row->read_rest(k, kn); /* gemm, fft: all read above, always classic */
  char why[600];
  int at;
  if (ggi_body_check(kn, &at, why, sizeof why)) ggi_decl_fail(k, at, "%s", why);
  check_expr_field(k, kn, "combine", kn->combine, "an expression in a and b");
  check_expr_field(k, kn, "identity", kn->identity, "a constant");
}
