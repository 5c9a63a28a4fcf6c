/*
 * load_gemm.c - the fields of pattern "gemm" (a cuBLASDx block GEMM per
 * batch item): size, type, the views a / b / c, op_a / op_b, alpha /
 * beta, each checked with "file:line:" on the first mistake.  What
 * cuBLASDx and a block's shared memory allow is the plan's to refuse
 * (plan.c).
 *
 * type = "complex" multiplies complex matrices.  As in pattern fft there
 * is no complex element type: a complex view holds (re, im) pairs, so A
 * of a complex gemm is f32[M][K][2] (c32) or f64[M][K][2] (c64), and a
 * batch of them [batch][M][2 x K] (a view has at most 3 extents).  Its
 * ops may also conjugate ("c").
 *
 * post = "statements" run on each element of C as it is stored, and may
 * contribute() to a reduction into a view (read_post).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "gemm_types.h"
#include "lex.h"
#include "loader.h"
#include "vocab.h"

#define GEMM_MAX_DIM 1024 /* a static M, N or K; shared memory refuses far less */
#define GEMM_MAX_SPLIT 64 /* split_k: K ranges (each at least one 16-deep step) */

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
                  "integers: each block computes a tm x tn tile of C, K in steps of tk) or \"auto\""
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

/* A complex operand's shape: one matrix [rows][cols][2], or a batch
 * [batch][rows][2 x cols] (views have at most 3 extents: each row then
 * holds its cols (re, im) pairs in one extent, the same bytes).  Returns
 * 1 for a batch. */
static int complex_shape(ggi_decl *k, const ggi_param *p, int which, int rows, int cols)
{
  const ggi_extent *e = p->ext;
  if (p->rank == 3 && !e[0].name && e[0].value == rows && !e[1].name && e[1].value == cols &&
      !e[2].name && e[2].value == 2)
    return 0;
  if (p->rank == 3 && !e[1].name && e[1].value == rows && !e[2].name && e[2].value == 2 * cols)
    return 1;
  char got[160];
  ggi_extents_text(p, got, sizeof got);
  const char *t = ggi_dtype_name(p->dtype);
  ggi_decl_fail(k, p->line, "view \"%s\": %c of a complex gemm is %d x %d complex values (%s): "
                "%s[%d][%d][2] ((re, im) pairs) or, in a batch, %s[batch][%d][%d] (each row's %d "
                "pairs), got %s%s", p->name, "ABC"[which], rows, cols,
                which == 0 ? "size and op_a" : which == 1 ? "size and op_b" : "size: M x N", t,
                rows, cols, t, rows, 2 * cols, cols, t, got);
}

/* a / b / c = "view": a parameter of rank 2 (one matrix) or 3 (a batch of
 * them, batch first), row-major, with the extents op() needs (complex:
 * complex_shape's).  *batch: whether it is a batch. */
static const ggi_param *read_view(ggi_decl *k, ggi_kernel *kn, int which, int rows, int cols,
                                  int cplx, int *batch)
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
  if (cplx) {
    *batch = complex_shape(k, p, which, rows, cols);
    kn->gemm_view[which] = name;
    return p;
  }
  if (p->rank != 2 && p->rank != 3)
    ggi_decl_fail(k, p->line, "view \"%s\": a gemm operand has rank 2 ([rows][cols]) or 3 "
                  "([batch][rows][cols]), got rank %d", name, p->rank);
  const ggi_extent *e = &p->ext[p->rank - 2];
  if (e[0].name || e[1].name || e[0].value != rows || e[1].value != cols) {
    char r[64], c[64];
    ggi_decl_fail(k, p->line, "view \"%s\": %c must be [%d][%d] here (%s), got "
                  "[%s][%s]%s", name, "ABC"[which], rows, cols,
                  which == 0 ? "size and op_a" : which == 1 ? "size and op_b" : "size: M x N",
                  ggi_extent_text(e[0], r, sizeof r), ggi_extent_text(e[1], c, sizeof c),
                  p->rank == 3 && !e[1].name && e[1].value == 2 && !e[0].name &&
                  e[0].value == cols ? "; (re, im) pairs are a complex gemm's: give type = "
                  "\"complex\"" : "");
  }
  kn->gemm_view[which] = name;
  *batch = p->rank == 3;
  return p;
}

/* One number or scalar's name at the top of the stack (type t): a C
 * expression.  A scalar must be of C's type (complex: its precision). */
static const char *read_scale_value(ggi_decl *k, ggi_kernel *kn, const char *f, int line, int t,
                                    gg_dtype prec, int cplx)
{
  lua_State *L = k->c->L;
  char buf[64];
  if (t == LUA_TNUMBER) {
    double x = (double)lua_tonumber(L, -1);
    if (!isfinite(x)) /* "inf" / "nan" would reach the compiler as identifiers */
      ggi_decl_fail(k, line, "field '%s' is %s, not a finite number; write a finite number or the "
                    "name of a scalar parameter", f, isnan(x) ? "NaN" : x > 0 ? "+inf" : "-inf");
    char why[160];
    if (ggi_float_misfit(x, prec, why, sizeof why) != GGI_FLOAT_FITS)
      ggi_decl_fail(k, line, "field '%s' = %g %s, C's %s: write 0, a value it holds, or the name "
                    "of a scalar parameter", f, x, why, cplx ? "precision" : "type");
    /* -0.0 == 0: written "0", so beta -0.0 is the beta 0 that leaves C unread */
    snprintf(buf, sizeof buf, "%.17g", x == 0 ? 0.0 : x);
    return ggi_load_strdup(k->c, buf);
  }
  const char *s = ggi_to_cstring(k, -1, line, f);
  const ggi_param *p = ggi_find_param(kn, s);
  if (!p || p->kind != GG_PARAM_SCALAR || p->dtype != prec)
    ggi_decl_fail(k, line, "field '%s' must be a number or the name of a scalar parameter of "
                  "C's %s %s; \"%s\" is %s", f, cplx ? "precision" : "type",
                  ggi_dtype_name(prec), s, !p ? "not a parameter"
                  : p->kind != GG_PARAM_SCALAR ? "a view" : "of another type");
  return s;
}

/* alpha / beta: a number (a constant) or the name of a scalar of C's
 * type; for a complex gemm also { re, im }, each a number or a scalar of
 * C's precision (a real scale has imaginary part 0).  out[0] is the real
 * part, out[1] the imaginary one. */
static void read_scale(ggi_decl *k, ggi_kernel *kn, const char *f, gg_dtype prec, int cplx,
                       const char *dflt, const char *out[2])
{
  lua_State *L = k->c->L;
  int line = ggi_field_line(k, f);
  int t = ggi_push_field(k, f);
  out[0] = dflt;
  out[1] = "0";
  if (t == LUA_TNUMBER || t == LUA_TSTRING) {
    out[0] = read_scale_value(k, kn, f, line, t, prec, cplx);
  } else if (t == LUA_TTABLE && cplx) {
    if (ggi_list_len(k, f, line) != 2)
      ggi_decl_fail(k, line, "field '%s' must be { re, im }: two numbers or scalars' names", f);
    for (int i = 0; i < 2; i++) {
      int ti = lua_rawgeti(L, -1, i + 1);
      if (ti != LUA_TNUMBER && ti != LUA_TSTRING)
        ggi_decl_fail(k, line, "%s[%d] (%s) must be a number or a scalar parameter's name, got %s",
                      f, i + 1, i ? "im" : "re", lua_typename(L, ti));
      char part[48]; /* the part, in the value's messages */
      snprintf(part, sizeof part, "%s[%d] (%s)", f, i + 1, i ? "im" : "re");
      out[i] = read_scale_value(k, kn, part, line, ti, prec, cplx);
      lua_pop(L, 1);
    }
  } else if (t != LUA_TNIL) {
    ggi_decl_fail(k, line, "field '%s' must be a number or a scalar parameter's name%s, got %s", f,
                  cplx ? ", or { re, im } of them" : " ({ re, im } is a complex gemm's: type = "
                  "\"complex\")", lua_typename(L, t));
  }
  lua_pop(L, 1);
}

/* The batch: the views' first extent, the same for all three. */
static void read_batch(ggi_decl *k, ggi_kernel *kn, const ggi_param *v[3], const int batch[3],
                       int cplx)
{
  for (int i = 1; i < 3; i++)
    if (batch[i] != batch[0] && !cplx)
      ggi_decl_fail(k, v[i]->line, "view \"%s\" has rank %d but \"%s\" rank %d: give A, B and C "
                    "all rank 2 (one matrix) or all rank 3 (a batch)", v[i]->name, v[i]->rank,
                    v[0]->name, v[0]->rank);
    else if (batch[i] != batch[0])
      ggi_decl_fail(k, v[i]->line, "view \"%s\" is %s but \"%s\" %s: give A, B and C all "
                    "[rows][cols][2] (one matrix) or all [batch][rows][2 x cols] (a batch)",
                    v[i]->name, batch[i] ? "a batch" : "one matrix", v[0]->name,
                    batch[0] ? "a batch" : "one matrix");
  kn->league = (ggi_extent){NULL, 1};
  if (!batch[0]) return;
  for (int i = 1; i < 3; i++)
    if (!ggi_same_extent(v[i]->ext[0], v[0]->ext[0])) {
      char a[64], b[64];
      ggi_decl_fail(k, v[i]->line, "view \"%s\": batch extent [%s] differs from \"%s\"'s [%s]; A, "
                    "B and C have one batch", v[i]->name, ggi_extent_text(v[i]->ext[0], a, sizeof a),
                    v[0]->name, ggi_extent_text(v[0]->ext[0], b, sizeof b));
    }
  kn->league = v[0]->ext[0];
}

/* The element types: a row of gemm_types.c for A's type in the domain
 * (real or complex), B of A's type and C of the row's. */
static const ggi_gemm_type *check_types(ggi_decl *k, const ggi_param *v[3], int cplx, int tf32)
{
  gg_dtype in = v[0]->dtype, out = v[2]->dtype;
  if (v[1]->dtype != in)
    ggi_decl_fail(k, v[1]->line, "view \"%s\" is %s but \"%s\" is %s: A and B have one type",
                  v[1]->name, ggi_dtype_name(v[1]->dtype), v[0]->name, ggi_dtype_name(in));
  if (tf32 && !ggi_gemm_type_of(in, cplx, 1))
    ggi_decl_fail(k, ggi_field_line(k, "math"), "math = \"tf32\" multiplies f32 inputs on tensor "
                  "cores as TF32; view \"%s\" is %s%s (leave math out: its products are exact "
                  "in their precision)", v[0]->name, ggi_dtype_name(in), cplx ? " pairs" : "");
  const ggi_gemm_type *t = ggi_gemm_type_of(in, cplx, tf32);
  if (!t) {
    char list[160] = "";
    int n = 0, i = 0;
    for (const ggi_gemm_type *r = ggi_gemm_types; r->name; r++) n += r->complex == cplx && !r->tf32;
    for (const ggi_gemm_type *r = ggi_gemm_types; r->name; r++) {
      if (r->complex != cplx || r->tf32) continue;
      size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
               cplx ? r->name : ggi_dtype_name(r->in));
      if (cplx) {
        used = strlen(list);
        snprintf(list + used, sizeof list - used, " (%s pairs)", ggi_dtype_name(r->in));
      }
      i++;
    }
    ggi_decl_fail(k, v[0]->line, "view \"%s\": %s takes %s inputs, got %s%s", v[0]->name,
                  cplx ? "a complex gemm" : "gemm", list, ggi_dtype_name(in), cplx ? " pairs" : "");
  }
  if (out != t->out)
    ggi_decl_fail(k, v[2]->line, "view \"%s\": C must be %s for %s inputs (%s), got %s",
                  v[2]->name, ggi_dtype_name(t->out), t->name, t->why_c, ggi_dtype_name(out));
  return t;
}

/* op_a / op_b: "n", "t", and for complex types "c" (conjugate transpose). */
static int read_op(ggi_decl *k, const char *f, int cplx)
{
  int op = ggi_opt_enum(k, f, ggi_gemm_op_names, GGI_GEMM_OP_N);
  if (op == GGI_GEMM_OP_C && !cplx)
    ggi_decl_fail(k, ggi_field_line(k, f), "field '%s' is \"c\" (conjugate transposed), which "
                  "is a complex gemm's (type = \"complex\"); a real gemm takes \"n\" or \"t\" (for "
                  "real values \"t\" is the same product)", f);
  return op;
}

/* post = "statements": cuBLAS's epilogue.  They run once for each
 * element of C, in the thread that holds it, after alpha AB + beta C and
 * before the store: item (long long, the batch item), i and j (int, its
 * row and column), re and im (its value, in f32 - f64 for f64 C -; a
 * real C's im is a scratch 0) are theirs to read and change, every view
 * and scalar of the kernel theirs to read, and with into they may
 * contribute(v0, ...) to a reduction, as a team body does: the detect of
 * a beamformer, max |Y|^2, in the same pass as Y. */
static void read_post(ggi_decl *k, ggi_kernel *kn)
{
  static const char *const names[] = {"item", "i", "j", "re", "im", NULL};
  kn->body = ggi_opt_string(k, "post");
  kn->body_line = ggi_text_line(k, "post");
  ggi_read_contributions(k, kn);
  if (!kn->body) {
    if (kn->into)
      ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': a gemm reduces what its post "
                    "statements contribute(v); give post = \"contribute(re * re + im * im);\" "
                    "or leave into out");
    return;
  }
  if (kn->into && !ggi_text_names(kn->body, "contribute"))
    ggi_decl_fail(k, kn->body_line ? kn->body_line : ggi_field_line(k, "post"), "field 'post' "
                  "never calls contribute(), so into \"%s\" would only get the identity: "
                  "contribute(v) the values to reduce, or leave into out", kn->into);
  ggi_check_element_names(k, kn, names, "a gemm's post statements see item, i, j, re and im "
                          "(the batch item, the element's row and column, its value)");
  ggi_check_element_statements(k, kn, kn->body, kn->body_line, "post", kn->gemm_view[2],
                               "the gemm's C");
}

void ggi_read_gemm(ggi_decl *k, ggi_kernel *kn)
{
  if (kn->targets & GGI_TARGET_HIP)
    ggi_decl_fail(k, k->line, "pattern \"gemm\" is CUDA only (it is a cuBLASDx block GEMM, which "
                  "has no HIP port): declare module { targets = { \"cuda\" } }");
  read_triple(k, "size", 0, kn->gemm_size);
  kn->gemm_tile_line = ggi_field_line(k, "tile");
  int tt = ggi_push_field(k, "tile");
  lua_pop(k->c->L, 1);
  if (tt == LUA_TSTRING) {
    const char *v = ggi_opt_string(k, "tile");
    if (strcmp(v, "auto") != 0)
      ggi_decl_fail(k, kn->gemm_tile_line ? kn->gemm_tile_line : k->line, "field 'tile' is "
                    "\"%s\": give { tm, tn, tk } (three integers) or \"auto\" (the plan's tile, "
                    "and a kernel for each of a few other tiles, which gg_session_tune measures)",
                    v);
    kn->gemm_tile_auto = 1;
  } else {
    read_triple(k, "tile", 1, kn->gemm_tile); /* fits? gemm_plan.c */
  }
  const int cplx = ggi_opt_enum(k, "type", ggi_gemm_domain_names, 0);
  const int tf32 = ggi_opt_enum(k, "math", ggi_gemm_math_names, 0);
  kn->gemm_trans[0] = read_op(k, "op_a", cplx);
  kn->gemm_trans[1] = read_op(k, "op_b", cplx);
  const int m = kn->gemm_size[0], n = kn->gemm_size[1], kk = kn->gemm_size[2];
  const ggi_param *v[3];
  int batch[3];
  v[0] = kn->gemm_trans[0] ? read_view(k, kn, 0, kk, m, cplx, &batch[0])
                           : read_view(k, kn, 0, m, kk, cplx, &batch[0]);
  v[1] = kn->gemm_trans[1] ? read_view(k, kn, 1, n, kk, cplx, &batch[1])
                           : read_view(k, kn, 1, kk, n, cplx, &batch[1]);
  v[2] = read_view(k, kn, 2, m, n, cplx, &batch[2]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < i; j++)
      if (v[i] == v[j])
        ggi_decl_fail(k, ggi_field_line(k, i == 1 ? "b" : "c"), "fields '%c' and '%c' name the same view "
                      "\"%s\"; a gemm's three views are three params%s", "abc"[j], "abc"[i],
                      v[i]->name, i == 1 ? " (for A A, declare B too and pass the same array to "
                      "both: both are read)" : " (C is written: it may not be A or B)");
  read_batch(k, kn, v, batch, cplx);
  kn->gemm_type = check_types(k, v, cplx, tf32);
  const char *alpha[2], *beta[2];
  read_scale(k, kn, "alpha", v[2]->dtype, cplx, "1", alpha);
  read_scale(k, kn, "beta", v[2]->dtype, cplx, "0", beta);
  for (int i = 0; i < 2; i++) {
    kn->gemm_scale[i] = i ? beta[0] : alpha[0];
    kn->gemm_scale_im[i] = i ? beta[1] : alpha[1];
  }
  if (v[2]->access == GG_ACCESS_OUT && (strcmp(beta[0], "0") != 0 || strcmp(beta[1], "0") != 0)) {
    char b[160];
    if (cplx) snprintf(b, sizeof b, "{ %s, %s }", beta[0], beta[1]);
    else snprintf(b, sizeof b, "%s", beta[0]);
    ggi_decl_fail(k, v[2]->line, "view \"%s\" has access \"out\" but beta is %s: C is read, so "
                  "give it access = \"inout\"", v[2]->name, b);
  }
  kn->block = ggi_opt_range(k, "block", 32, GG_BLOCK_THREADS_MAX, 32);
  /* split_k: whether K has enough steps for it is the plan's (gemm_plan.c) */
  kn->gemm_split_line = ggi_field_line(k, "split_k");
  kn->gemm_split = ggi_opt_range(k, "split_k", 1, GEMM_MAX_SPLIT, 1);
  if (kn->gemm_split == 0) kn->gemm_split = 1;
  read_post(k, kn);
  /* a reduction's workspace grows with the grid, and the split slots
     after it would move between launches of other grid sizes onto words
     the last launch left non-zero */
  if (kn->gemm_split > 1 && kn->into)
    ggi_decl_fail(k, kn->gemm_split_line, "field 'split_k' with into is not built (the "
                  "reduction's partials and the split's slots share the workspace): leave "
                  "split_k out, or reduce C in a stage of its own");
}
