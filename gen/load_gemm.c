/*
 * load_gemm.c - the fields of pattern "gemm" (a cuBLASDx block GEMM per
 * batch item): size, the views a / b / c, op_a / op_b, alpha / beta, each
 * checked with "file:line:" on the first mistake.  What cuBLASDx and a
 * block's shared memory allow is the plan's to refuse (plan.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "loader.h"
#include "vocab.h"

#define GEMM_MAX_DIM 1024 /* a static M, N or K; shared memory refuses far less */

static const char *const op_names[] = {"n", "t", NULL};

/* size = { M, N, K } or tile = { tm, tn, tk }: three integers 1..1024
 * into out; 0 when an optional field is left out. */
static int read_triple(ggi_decl *k, const char *f, int optional, int out[3])
{
  lua_State *L = k->c->L;
  static const char *const what[2][3] = {{"M", "N", "K"}, {"tm", "tn", "tk"}};
  int t = strcmp(f, "tile") == 0;
  int line = ggi_field_line(k, f);
  int type = ggi_push_field(k, f);
  if (type == LUA_TNIL && optional) {
    lua_pop(L, 1);
    return 0;
  }
  if (type != LUA_TTABLE)
    ggi_decl_fail(k, line ? line : k->line, t ? "field 'tile' must be { tm, tn, tk } (three "
                  "integers: each block computes a tm x tn tile of C, K in steps of tk)"
                  : "field 'size' must be { M, N, K } (three integers: C is M x N, op(A) M x K, "
                  "op(B) K x N)");
  if (ggi_list_len(k, f, line) != 3)
    ggi_decl_fail(k, line, "field '%s' must hold 3 integers { %s, %s, %s }", f, what[t][0],
                  what[t][1], what[t][2]);
  for (int i = 0; i < 3; i++) {
    int isint = 0;
    lua_rawgeti(L, -1, i + 1);
    /* a number only: lua_tointegerx would also take the string "8" */
    lua_Integer v = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &isint) : 0;
    if (!isint || v < 1 || v > GEMM_MAX_DIM)
      ggi_decl_fail(k, line, "%s[%d] (%s) must be an integer 1..%d (%s)", f, i + 1, what[t][i],
                    GEMM_MAX_DIM, t ? "a tile is static: cuBLASDx compiles it in"
                                    : "sizes are static: cuBLASDx compiles them in");
    out[i] = (int)v;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return line;
}

/* a / b / c = "view": a parameter of rank 2 (one matrix) or 3 (a batch of
 * them, batch first), row-major, with the extents op() needs. */
static const ggi_param *read_view(ggi_decl *k, ggi_kernel *kn, int which, int rows, int cols)
{
  static const char *const field[] = {"a", "b", "c"};
  const char *f = field[which];
  int line = ggi_field_line(k, f);
  const char *name = ggi_opt_string(k, f);
  if (!name)
    ggi_decl_fail(k, k->line, "field '%s' is missing; name the view holding %c", f, "ABC"[which]);
  const ggi_param *p = ggi_find_param(kn, name);
  if (!p || p->kind != GG_PARAM_VIEW)
    ggi_decl_fail(k, line, "field '%s' must name a view parameter; \"%s\" is %s", f, name,
                  p ? "a scalar" : "not a parameter");
  if (which < 2 && p->access != GG_ACCESS_IN)
    ggi_decl_fail(k, line, "field '%s': view \"%s\" has access \"%s\"; %c is only read: give it "
                  "access = \"in\"", f, name, ggi_access_names[p->access], "AB"[which]);
  if (which == 2 && p->access != GG_ACCESS_OUT && p->access != GG_ACCESS_INOUT)
    ggi_decl_fail(k, line, "field 'c': view \"%s\" has access \"%s\"; C is written: give it "
                  "access = \"inout\" (or \"out\" when beta is 0)", name, ggi_access_names[p->access]);
  if (p->layout != GG_LAYOUT_RIGHT)
    ggi_decl_fail(k, p->line, "view \"%s\": a gemm operand is row-major (layout \"right\"), got "
                  "\"%s\"; for a column-major A or B give op_a / op_b = \"t\" and the transposed "
                  "extents", name, ggi_layout_names[p->layout]);
  if (p->rank != 2 && p->rank != 3)
    ggi_decl_fail(k, p->line, "view \"%s\": a gemm operand has rank 2 ([rows][cols]) or 3 "
                  "([batch][rows][cols]), got rank %d", name, p->rank);
  const ggi_extent *e = &p->ext[p->rank - 2];
  if (e[0].name || e[1].name || e[0].value != rows || e[1].value != cols) {
    char r[64], c[64];
    ggi_decl_fail(k, p->line, "view \"%s\": %c must be [%d][%d] here (%s), got "
                  "[%s][%s]", name, "ABC"[which], rows, cols,
                  which == 0 ? "size and op_a" : which == 1 ? "size and op_b" : "size: M x N",
                  ggi_extent_text(e[0], r, sizeof r), ggi_extent_text(e[1], c, sizeof c));
  }
  kn->gemm_view[which] = name;
  return p;
}

/* alpha / beta: a number (a constant) or the name of a scalar of C's type. */
static const char *read_scale(ggi_decl *k, ggi_kernel *kn, const char *f, gg_dtype ctype,
                              const char *dflt)
{
  lua_State *L = k->c->L;
  int line = ggi_field_line(k, f);
  int t = ggi_push_field(k, f);
  const char *s = dflt;
  char buf[64];
  if (t == LUA_TNUMBER) {
    double x = (double)lua_tonumber(L, -1);
    if (!isfinite(x)) /* "inf" / "nan" would reach the compiler as identifiers */
      ggi_decl_fail(k, line, "field '%s' is %s, not a finite number; write a finite number or the "
                    "name of a scalar parameter", f, isnan(x) ? "NaN" : x > 0 ? "+inf" : "-inf");
    /* -0.0 == 0: written "0", so beta -0.0 is the beta 0 that leaves C unread */
    snprintf(buf, sizeof buf, "%.17g", x == 0 ? 0.0 : x);
    s = ggi_load_strdup(k->c, buf);
  } else if (t == LUA_TSTRING) {
    s = ggi_to_cstring(k, -1, line, f);
    const ggi_param *p = ggi_find_param(kn, s);
    if (!p || p->kind != GG_PARAM_SCALAR || p->dtype != ctype)
      ggi_decl_fail(k, line, "field '%s' must be a number or the name of a scalar parameter of "
                    "C's type %s; \"%s\" is %s", f, ggi_dtype_name(ctype), s,
                    !p ? "not a parameter" : p->kind != GG_PARAM_SCALAR ? "a view"
                                                                        : "of another type");
  } else if (t != LUA_TNIL) {
    ggi_decl_fail(k, line, "field '%s' must be a number or a scalar parameter's name, got %s", f,
                  lua_typename(L, t));
  }
  lua_pop(L, 1);
  return s;
}

/* The batch: the views' first extent, the same for all three. */
static void read_batch(ggi_decl *k, ggi_kernel *kn, const ggi_param *v[3])
{
  for (int i = 1; i < 3; i++)
    if (v[i]->rank != v[0]->rank)
      ggi_decl_fail(k, v[i]->line, "view \"%s\" has rank %d but \"%s\" rank %d: give A, B and C "
                    "all rank 2 (one matrix) or all rank 3 (a batch)", v[i]->name, v[i]->rank,
                    v[0]->name, v[0]->rank);
  kn->league = (ggi_extent){NULL, 1};
  if (v[0]->rank == 2) return;
  for (int i = 1; i < 3; i++)
    if (!ggi_same_extent(v[i]->ext[0], v[0]->ext[0])) {
      char a[64], b[64];
      ggi_decl_fail(k, v[i]->line, "view \"%s\": batch extent [%s] differs from \"%s\"'s [%s]; A, "
                    "B and C have one batch", v[i]->name, ggi_extent_text(v[i]->ext[0], a, sizeof a),
                    v[0]->name, ggi_extent_text(v[0]->ext[0], b, sizeof b));
    }
  kn->league = v[0]->ext[0];
}

/* Element types cuBLASDx takes here: f32 and f64, and f16 / bf16 inputs
 * accumulated in f32 (tensor cores). */
static void check_types(ggi_decl *k, const ggi_param *v[3])
{
  gg_dtype in = v[0]->dtype, out = v[2]->dtype;
  if (v[1]->dtype != in)
    ggi_decl_fail(k, v[1]->line, "view \"%s\" is %s but \"%s\" is %s: A and B have one type",
                  v[1]->name, ggi_dtype_name(v[1]->dtype), v[0]->name, ggi_dtype_name(in));
  if (in != GG_F32 && in != GG_F64 && in != GG_F16 && in != GG_BF16)
    ggi_decl_fail(k, v[0]->line, "view \"%s\": gemm takes f32, f64, f16 or bf16 inputs, got %s",
                  v[0]->name, ggi_dtype_name(in));
  gg_dtype want = in == GG_F64 ? GG_F64 : GG_F32;
  if (out != want)
    ggi_decl_fail(k, v[2]->line, "view \"%s\": C must be %s for %s inputs (%s), got %s",
                  v[2]->name, ggi_dtype_name(want), ggi_dtype_name(in),
                  ggi_dtype_is_half(in) ? "accumulated in f32 on tensor cores" : "one precision",
                  ggi_dtype_name(out));
}

void ggi_read_gemm(ggi_decl *k, ggi_kernel *kn)
{
  if (kn->targets & GGI_TARGET_HIP)
    ggi_decl_fail(k, k->line, "pattern \"gemm\" is CUDA only (it is a cuBLASDx block GEMM, which "
                  "has no HIP port): declare module { targets = { \"cuda\" } }");
  read_triple(k, "size", 0, kn->gemm_size);
  kn->gemm_tile_line = read_triple(k, "tile", 1, kn->gemm_tile); /* fits? gemm_plan.c */
  kn->gemm_trans[0] = ggi_opt_enum(k, "op_a", op_names, 0);
  kn->gemm_trans[1] = ggi_opt_enum(k, "op_b", op_names, 0);
  const int m = kn->gemm_size[0], n = kn->gemm_size[1], kk = kn->gemm_size[2];
  const ggi_param *v[3];
  v[0] = kn->gemm_trans[0] ? read_view(k, kn, 0, kk, m) : read_view(k, kn, 0, m, kk);
  v[1] = kn->gemm_trans[1] ? read_view(k, kn, 1, n, kk) : read_view(k, kn, 1, kk, n);
  v[2] = read_view(k, kn, 2, m, n);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < i; j++)
      if (v[i] == v[j])
        ggi_decl_fail(k, ggi_field_line(k, i == 1 ? "b" : "c"), "fields '%c' and '%c' name the same view "
                      "\"%s\"; views of one kernel must not overlap", "abc"[j], "abc"[i],
                      v[i]->name);
  read_batch(k, kn, v);
  check_types(k, v);
  kn->gemm_scale[0] = read_scale(k, kn, "alpha", v[2]->dtype, "1");
  kn->gemm_scale[1] = read_scale(k, kn, "beta", v[2]->dtype, "0");
  if (v[2]->access == GG_ACCESS_OUT && strcmp(kn->gemm_scale[1], "0") != 0)
    ggi_decl_fail(k, v[2]->line, "view \"%s\" has access \"out\" but beta is %s: C is read, so "
                  "give it access = \"inout\"", v[2]->name, kn->gemm_scale[1]);
  kn->block = ggi_opt_range(k, "block", 32, GG_BLOCK_THREADS_MAX, 32);
}
