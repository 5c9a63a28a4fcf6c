/*
 * load_kernel.c - a `kernel` declaration into a ggi_kernel: its pattern,
 * range and index, the pattern's fields (team, body, launch; a
 * reduction's in load_reduction.c, gemm's and fft's in their own files)
 * and knobs, each checked with "file:line:" on the first mistake.
 * Params, types and extents are read by load_params.c.
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
static const char *const kernel_fields[] = {
  "pattern", "range", "index", "params", "body", "block", "items", "vector", "launch",
  "value", "op", "combine", "identity", "into", "type", "strategy", "allow_cas", "kind",
  "tile", "league", "team_size", "scratch", "size", "a", "b", "c", "op_a", "op_b", "alpha",
  "beta", "math", "split_k", "direction", "input", "output", "post", "between", NULL};

/* ------------------------------------------------------------------ */
/* a kernel                                                            */

static void read_range(ggi_decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "range");
  int line = ggi_field_line(k, "range");
  if (t == LUA_TNIL)
    ggi_decl_fail(k, k->line, "field 'range' is missing; pattern \"%s\" needs range = { extent, ... } (1 to 3 names or integers)",
          ggi_pattern_name(kn->pattern));
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
      char text[64];
      if (!isint)
        ggi_decl_fail(k, line, "range[%d] must be an integer or a name, got %s", i + 1,
                      ggi_non_integer_text(L, -1, text, sizeof text));
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
  ggi_static_product(k, line, kn->range, n, 1, "field 'range'");
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
  kn->team_size = ggi_opt_range(k, "team_size", 32, GG_BLOCK_THREADS_MAX, 32); /* 0: gpugen chooses */
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
          ggi_pattern_name(kn->pattern));
}

static void read_knobs(ggi_decl *k, ggi_kernel *kn) {
  kn->block = ggi_opt_range(k, "block", 32, GG_BLOCK_THREADS_MAX, 32);
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
            "1-D range; this is pattern \"%s\"", p->name, ggi_pattern_name(kn->pattern));
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
          ggi_pattern_name(kn->pattern), kn->rank);
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
  ggi_read_reduce_fields(k, kn);
  read_launch(k, kn);
}

void ggi_read_scan_rest(ggi_decl *k, ggi_kernel *kn) {
  ggi_read_scan_fields(k, kn);
  read_launch(k, kn);
}

void ggi_read_tile_rest(ggi_decl *k, ggi_kernel *kn) {
  ggi_read_tile_fields(k, kn);
  read_launch(k, kn);
}

/* A kernel declaration: its pattern's row says which fields it takes and
 * reads them (patterns.c); the checks every kernel gets are here. */
void ggi_convert_kernel(ggi_decl *k, ggi_kernel *kn, unsigned targets) {
  char buf[256];
  kn->targets = targets;
  int pt = ggi_opt_enum(k, "pattern", ggi_pattern_names(), -1);
  if (pt < 0) ggi_decl_fail(k, k->line, "field 'pattern' is missing; pattern must be one of %s", ggi_join_names(ggi_pattern_names(), buf, sizeof buf));
  kn->pattern = (gg_pattern)pt;
  const ggi_pattern_row *row = ggi_pattern_of(kn->pattern);
  snprintf(buf, sizeof buf, "pattern \"%s\"", ggi_pattern_name((gg_pattern)pt));
  ggi_check_fields(k, k->t, row->fields, kernel_fields, buf);

  kn->params = ggi_read_params(k, "params", &kn->nparams, 0);
  row->read_shape(k, kn);
  ggi_collect_extents(k, kn);
  ggi_check_scope(k, kn);
  check_hidden(k, kn);
  check_halos(k, kn);
  if (row->read_rest) row->read_rest(k, kn); /* gemm, fft: all read above, always classic */
  ggi_diag why;
  int at;
  if (ggi_body_check(kn, &at, &why)) ggi_decl_fail(k, at, "%s", why.msg);
  ggi_check_expr_field(k, kn, "combine", kn->combine, "an expression in a and b");
  ggi_check_expr_field(k, kn, "identity", kn->identity, "a constant");
}
