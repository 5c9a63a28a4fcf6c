/*
 * load_params.c - what every kernel reader shares: a params (or scratch)
 * list into ggi_params, their types ("f32[n][4]") and extents, the
 * kernel's run-time extents, and the one C scope its names share.
 * load_kernel.c, load_fft.c, load_gemm.c and load_persistent.c call in
 * here; nothing here calls them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lauxlib.h>
#include <lua.h>

#include "loader.h"
#include "vocab.h"

/* The fields a params entry accepts besides its name and type. */
static const char *const param_fields[] = {"access", "layout", "space", "halo", NULL};

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

int64_t ggi_static_product(ggi_decl *k, int line, const ggi_extent *ext, int n, int64_t unit,
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
 * you mean": the name as written before any '[' (n bytes), case ignored
 * (so a type's own spelling in another case, "F32", means it too). */
static const char *dtype_for_c_name(const char *s, size_t n) {
  static const struct { const char *c; gg_dtype t; } table[] = {
    {"double", GG_F64}, {"float", GG_F32}, {"int", GG_I32}, {"int32_t", GG_I32},
    {"signed", GG_I32}, {"unsigned", GG_U32}, {"unsigned int", GG_U32}, {"uint32_t", GG_U32},
    {"uint", GG_U32}, {"long", GG_I64}, {"long long", GG_I64}, {"long int", GG_I64},
    {"int64_t", GG_I64}, {"ssize_t", GG_I64}, {"ptrdiff_t", GG_I64}, {"unsigned long", GG_U64},
    {"unsigned long long", GG_U64}, {"uint64_t", GG_U64}, {"size_t", GG_U64}, {"half", GG_F16},
    {"__half", GG_F16}, {"float16", GG_F16}, {"_float16", GG_F16}, {"bfloat16", GG_BF16},
    {"__bf16", GG_BF16}, {"__nv_bfloat16", GG_BF16}, {"hip_bfloat16", GG_BF16},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strlen(table[i].c) == n && strncasecmp(table[i].c, s, n) == 0)
      return ggi_dtype_names[table[i].t];
  for (int t = 0; ggi_dtype_names[t]; t++)
    if (strlen(ggi_dtype_names[t]) == n && strncasecmp(ggi_dtype_names[t], s, n) == 0)
      return ggi_dtype_names[t];
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
  ggi_static_product(k, line, p->ext, p->rank, (int64_t)ggi_dtype_size((gg_dtype)dt), what);
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

const char *ggi_extents_text(const ggi_param *p, char *buf, size_t n) {
  size_t used = 0;
  if (n) buf[0] = '\0';
  for (int r = 0; r < p->rank && used < n; r++) {
    char e[64];
    used += (size_t)snprintf(buf + used, n - used, "[%s]", ggi_extent_text(p->ext[r], e, sizeof e));
  }
  return buf;
}

const char *ggi_view_text(const ggi_param *p, char *buf, size_t n) {
  const size_t used = (size_t)snprintf(buf, n, "%s", ggi_dtype_names[p->dtype]);
  if (used < n) ggi_extents_text(p, buf + used, n - used);
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
  ggi_diag flat;
  if (ggi_flat_params(L, -1, f, &flat)) ggi_decl_fail(k, line, "%s", flat.msg);
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
