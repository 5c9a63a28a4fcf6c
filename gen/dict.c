/*
 * dict.c - the per-kernel template values (docs/internals.md): the
 * argument struct, how the body sees its scalars and views, the index
 * decode, the reduction's values and identity, and the plan's own keys.
 * Every value is a ready-made snippet: the templates only substitute.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns.h"
#include "text_rules.h"
#include "dict.h"
#include "names.h"
#include "vocab.h"

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

const char *ggi_field_ctype(const ggi_kernel *k, const ggi_field *f, ggi_arena *a)
{
  if (f->kind == GG_PARAM_VIEW) {
    const ggi_param *pp = &k->params[f->param];
    return afmt(a, "%s%s *", pp->access == GG_ACCESS_IN ? "const " : "", ggi_dtype_ctype(f->dtype));
  }
  if (f->hidden == GG_HIDDEN_WORKSPACE) return "void *";
  return ggi_dtype_ctype(f->dtype);
}

/* An #undef line for a name the text #defines. */
static void undef_line(void *ctx, const char *name, size_t len)
{
  ggi_buf_printf(ctx, "#undef %.*s\n", (int)len, name);
}

/* A body, value or other text of the workload's, as the templates get it:
 * a #line to its place in the .lua file, the text, and a #line back.
 * Every name the text #defines is #undef'd after it, so its macros end
 * with it: without that, a body's `#define fabsf(v) (v)` reached every
 * later kernel (NVRTC ignores push_macro and pop_macro, so they cannot
 * bring back what a name meant before; the loader refuses #define of
 * gpugen's own names instead).  The empty line after the text ends a
 * line splice (a last line ending in a backslash) before the lines that
 * follow. */
static const char *snippet_of(ggi_arena *a, const ggi_module *m, const char *text, int line,
                              int statements)
{
  ggi_buf b = {0};
  const char *file = m->file ? m->file : "workload.lua";
  line = line > 0 ? line : 1;
  /* Statements go in a block of their own whose '}' is numbered as the
   * text's last line: a last statement left open (no ';', or a bare
   * `while (c)`) is then an error there, for NVRTC too, which names the
   * next token's place - gpugen's code, in a .cu `check` never writes.
   * Only a '}' does: any statement after `while (c)` would be its body. */
  if (statements) ggi_buf_puts(&b, "{\n");
  ggi_buf_printf(&b, "#line %d \"", line);
  ggi_buf_put_cstr(&b, file);
  ggi_buf_printf(&b, "\"\n%s\n\n", text ? text : "");
  if (statements) {
    int last = line;
    for (const char *c = text ? text : ""; *c; c++)
      last += *c == '\n' && c[1] != 0;
    ggi_buf_printf(&b, "#line %d \"", last);
    ggi_buf_put_cstr(&b, file);
    ggi_buf_puts(&b, "\"\n}\n");
  }
  ggi_text_defines(text, undef_line, &b);
  ggi_buf_printf(&b, GGI_LINE_BACK "\n");
  return buf_to_arena(a, &b);
}
/* A value: an expression. */
static const char *snippet(ggi_arena *a, const ggi_module *m, const char *text, int line)
{
  return snippet_of(a, m, text, line, 0);
}
/* A body: statements. */
static const char *statements(ggi_arena *a, const ggi_module *m, const char *text, int line)
{
  return snippet_of(a, m, text, line, 1);
}

/* Values 1.. of a multi-value reduce, one statement each into gg_a, the
 * text under its field's #line (reduce_fold.cuh's {{MORE_VALUES}}). */
static const char *more_values(ggi_arena *a, const ggi_module *m, const ggi_kernel *k)
{
  ggi_buf b = {0};
  for (int v = 1; v < k->nvalues && v < GGI_MAX_VALUES; v++) {
    ggi_buf_printf(&b, "gg_a.v[%d] = (acc_t)(\n", v);
    ggi_buf_puts(&b, snippet(a, m, k->values[v] ? k->values[v] : "0", k->value_line));
    ggi_buf_puts(&b, "  );\n");
  }
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

/* A view macro's parameter list, by rank: gg_ names, since a view may be
 * named i0 (its own macro would capture it) and a body never names gg_. */
static const char *const macro_params[] = {"(gg_i0)", "(gg_i0, gg_i1)", "(gg_i0, gg_i1, gg_i2)"};

/* A view's index macro: V(gg_i0, ...) is the element. */
static void view_macro(ggi_buf *mac, const ggi_param *pp)
{
  const char *v = pp->name;
  ggi_buf_printf(mac, "#define %s%s %s[", v, macro_params[pp->rank - 1], v);
  if (pp->layout == GG_LAYOUT_STRIDE) {
    for (int dim = 0; dim < pp->rank; dim++)
      ggi_buf_printf(mac, "%s(gg_i%d)*%s_s%d", dim ? " + " : "", dim, v, dim);
  } else if (pp->rank == 1 && pp->halo) {
    /* a for body's own index is its linear index gg_lin (rank 1; the
       loader allows halo nowhere else), which the body cannot rename */
    ggi_buf_printf(mac, "gg_halo_index((gg_i0), gg_lin, %dLL)", pp->halo);
  } else if (pp->rank == 1) {
    ggi_buf_puts(mac, "(gg_i0)");
  } else if (pp->layout == GG_LAYOUT_RIGHT) {
    /* row-major: the last index is contiguous */
    if (pp->rank == 2) ggi_buf_printf(mac, "(gg_i0)*%s_e1 + (gg_i1)", v);
    else ggi_buf_printf(mac, "((gg_i0)*%s_e1 + (gg_i1))*%s_e2 + (gg_i2)", v, v);
  } else {
    /* column-major: the first index is contiguous */
    if (pp->rank == 2) ggi_buf_printf(mac, "(gg_i0) + (gg_i1)*%s_e0", v);
    else ggi_buf_printf(mac, "(gg_i0) + ((gg_i1) + (gg_i2)*%s_e1)*%s_e0", v, v);
  }
  ggi_buf_puts(mac, "]\n");
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
  view_macro(mac, pp);
  ggi_buf_printf(undef, "#undef %s\n", v);
}

/* Declares the named indices from gg_lin (for) or the team ids (team). */
static const char *index_decode(const ggi_kernel *k, ggi_arena *a)
{
  ggi_buf b = {0};
  if (ggi_pattern_is(k, GGI_PAT_TEAMS)) {
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
  int first = k->spec.first_fastest;
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

/* The reduce/scan/tile_reduce keys of docs/internals.md; a plan's own
 * keys (set afterwards) replace these. */
static int reduce_keys(const ggi_module *m, const ggi_kernel *k, ggi_dict *dict, ggi_arena *a)
{
  static const char *const combine[] = {
    [GGI_OP_SUM] = "((a) + (b))", [GGI_OP_MIN] = "((b) < (a) ? (b) : (a))",
    [GGI_OP_MAX] = "((a) < (b) ? (b) : (a))", [GGI_OP_PROD] = "((a) * (b))"};
  static const char *const atomic[] = {
    [GGI_OP_SUM] = "gg_atomic_add", [GGI_OP_MIN] = "gg_atomic_min",
    [GGI_OP_MAX] = "gg_atomic_max", [GGI_OP_PROD] = "gg_atomic_cas_combine",
    [GGI_OP_CUSTOM] = "gg_atomic_cas_combine"};
  int rc = 0;
  rc |= ggi_dict_set(dict, "ACC_T", ggi_dtype_ctype(k->acc_type));
  if (k->op == GGI_OP_CUSTOM) {
    /* the workload's combine and identity under their own lines, so that
       a compile error in them names the workload's file:line: combine is
       a function in the kernel's namespace (a #define cannot hold a #line) */
    rc |= ggi_dict_set(dict, "IDENTITY", afmt(a, "\n%s", snippet(a, m, k->identity ? k->identity
                                                                            : "0",
                                                               k->identity_line)));
    rc |= ggi_dict_set(dict, "COMBINE_DEF",
                       afmt(a, "template <class gg_T> GG_INLINE gg_T gg_combine(gg_T a, gg_T b)\n"
                               "{\n  return (\n%s  );\n}\n"
                               "#define GG_COMBINE(a, b) gg_combine((a), (b))",
                            snippet(a, m, k->combine ? k->combine : "a", k->combine_line)));
  } else {
    rc |= ggi_dict_set(dict, "IDENTITY", ggi_reduce_identity(k, k->op));
    rc |= ggi_dict_set(dict, "COMBINE_DEF", afmt(a, "#define GG_COMBINE(a, b) %s", combine[k->op]));
  }
  rc |= ggi_dict_set(dict, "MORE_VALUES", more_values(a, m, k));
  rc |= ggi_dict_set(dict, "ATOMIC_COMBINE", atomic[k->op <= GGI_OP_CUSTOM ? k->op : GGI_OP_CUSTOM]);
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

/* The for template's halo exchange keys (for.cuh's #if {{EXCHANGED}}
 * part), for the views a frame exchanges (ggi_param.exchanged): the
 * struct a frame fills per stage, the view macros of that body - a halo
 * view read through gg_halo_ld (plan.c: the body reads it only through
 * its macro; a value, the halo checked as gg_halo_index does) - and a
 * publish statement per published view.  EXCHANGED 0 for other kernels. */
static int exchange_keys(const ggi_kernel *k, ggi_dict *dict, ggi_arena *a)
{
  ggi_buf st = {0}, pub = {0}, mac = {0};
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind != GG_PARAM_VIEW) continue;
    if (pp->exchanged & GGI_XCHG_READ) {
      ggi_buf_printf(&st, "  gg_xchg_rd %s;\n", pp->name);
      ggi_buf_printf(&mac, "#define %s(gg_i0) gg_halo_ld(%s, (gg_i0), gg_lin, %dLL, gg_io.%s, gg_lo, "
                           "gg_chunk, gg_c)\n", pp->name, pp->name, pp->halo, pp->name);
    } else {
      view_macro(&mac, pp);
    }
    if (!(pp->exchanged & GGI_XCHG_PUBLISH)) continue;
    ggi_buf_printf(&st, "  gg_xchg_pub %s;\n", pp->name);
    ggi_buf_printf(&pub, "  gg_halo_pub(gg_io.%s, %s, gg_lin, gg_lo, gg_chunk, gg_c);\n",
                   pp->name, pp->name);
  }
  int rc = 0, any = st.len > 0;
  rc |= ggi_dict_set(dict, "EXCHANGED", any ? "1" : "0");
  rc |= ggi_dict_set(dict, "IO_STRUCT",
                     any ? afmt(a, "/* %s's halo views read and written views published in tagged "
                                   "words, as\n * the frame's plan says (halo_exchange.cuh) */\n"
                                   "struct gg_io_t {\n%s};", k->name, st.p)
                         : "");
  rc |= ggi_dict_set(dict, "XVIEW_MACROS", any ? buf_to_arena(a, &mac) : "");
  rc |= ggi_dict_set(dict, "IO_PUBLISH", pub.len ? buf_to_arena(a, &pub) : "");
  if (!ggi_buf_ok(&st)) rc = -1;
  ggi_buf_free(&st);
  ggi_buf_free(&pub);
  ggi_buf_free(&mac);
  return rc;
}

/* The for template's staged-steps keys (for.cuh's #if {{STAGED}} part),
 * for the views plan.c staged (ggi_param.staged): the registers of one
 * index, their loads and the stores of the inout ones, the macros the
 * body runs with (the register, a const one for an in view; the index
 * still evaluated, so the body names it as before), and the steps.
 * STAGED 0 when the plan staged nothing. */
static int staging_keys(const ggi_kernel *k, ggi_dict *dict, ggi_arena *a)
{
  /* the indices evaluated (so a body naming them only in views uses them) */
  static const char *const voids[] = {"(void)(gg_i0), ", "(void)(gg_i0), (void)(gg_i1), ",
                                      "(void)(gg_i0), (void)(gg_i1), (void)(gg_i2), "};
  ggi_buf st = {0}, ld = {0}, sto = {0}, mac = {0}, names = {0}, idx = {0};
  for (int d = 0; d < k->rank && k->stage_steps > 0; d++)
    ggi_buf_printf(&idx, "%s%s", d ? ", " : "", k->index[d]);
  for (int i = 0; i < k->nparams && k->stage_steps > 0; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind != GG_PARAM_VIEW) continue;
    if (!pp->staged) {
      view_macro(&mac, pp);
      continue;
    }
    const char *t = ggi_dtype_ctype(pp->dtype);
    ggi_buf_printf(&st, "  %s %s;\n", t, pp->name);
    ggi_buf_printf(&names, "%s%s", names.len ? ", " : "", pp->name);
    stmt(&ld, "gg_s.%s = %s(%s);", pp->name, pp->name, idx.p);
    if (pp->access == GG_ACCESS_INOUT) stmt(&sto, "%s(%s) = gg_s.%s;", pp->name, idx.p, pp->name);
    const char *reg = pp->access == GG_ACCESS_IN
                          ? afmt(a, "static_cast<const %s &>(gg_s.%s)", t, pp->name)
                          : afmt(a, "gg_s.%s", pp->name);
    ggi_buf_printf(&mac, "#define %s%s (%s%s)\n", pp->name, macro_params[pp->rank - 1],
                   voids[pp->rank - 1], reg);
  }
  int rc = 0, any = st.len > 0;
  rc |= ggi_dict_set(dict, "STAGED", any ? "1" : "0");
  rc |= ggi_dict_set(dict, "STAGE_STEPS", afmt(a, "%d", any ? k->stage_steps : 1));
  rc |= ggi_dict_set(dict, "STAGED_VIEWS", any ? buf_to_arena(a, &names) : "");
  rc |= ggi_dict_set(dict, "STAGE_FIELDS", any ? buf_to_arena(a, &st) : "");
  rc |= ggi_dict_set(dict, "STAGE_LOAD", any ? buf_to_arena(a, &ld) : "");
  rc |= ggi_dict_set(dict, "STAGE_STORES", sto.len ? "1" : "0");
  rc |= ggi_dict_set(dict, "STAGE_STORE", sto.len ? buf_to_arena(a, &sto) : "");
  rc |= ggi_dict_set(dict, "STAGE_VIEW_MACROS", any ? buf_to_arena(a, &mac) : "");
  if (!ggi_buf_ok(&idx)) rc = -1; /* the others: a NULL value, which the caller refuses */
  ggi_buf_free(&st);
  ggi_buf_free(&ld);
  ggi_buf_free(&sto);
  ggi_buf_free(&mac);
  ggi_buf_free(&names);
  ggi_buf_free(&idx);
  return rc;
}

/* for: its halo exchanges and staged views. */
int ggi_dict_for(const ggi_module *m, const ggi_kernel *k, ggi_dict *dict, ggi_arena *a)
{
  (void)m;
  return exchange_keys(k, dict, a) | staging_keys(k, dict, a);
}

/* fft: the statements between its two transforms. */
int ggi_dict_fft(const ggi_module *m, const ggi_kernel *k, ggi_dict *dict, ggi_arena *a)
{
  return ggi_dict_set(dict, "FFT_BETWEEN", statements(a, m, k->fft_between, k->fft_between_line));
}

int ggi_kernel_dict(const ggi_module *m, const ggi_kernel *k, unsigned target,
                    const ggi_plan *p, ggi_dict *dict, ggi_diag *d)
{
  ggi_arena *a = m->arena;
  const ggi_abi lay = p->args;
  memset(dict, 0, sizeof *dict);

  ggi_buf fields = {0}, un = {0}, mac = {0}, undef = {0}, scratch = {0};
  for (int i = 0; i < lay.n; i++)
    ggi_buf_printf(&fields, "  %s%s%s; /* offset %u */\n", ggi_field_ctype(k, &lay.f[i], a),
                   lay.f[i].kind == GG_PARAM_VIEW ? "" : " ", lay.f[i].name, lay.f[i].offset);
  for (int i = 0; i < k->nparams; i++) {
    const ggi_param *pp = &k->params[i];
    if (pp->kind == GG_PARAM_SCALAR) {
      stmt(&un, "const %s %s = args.%s;", ggi_dtype_ctype(pp->dtype), pp->name, pp->name);
      continue;
    }
    /* Views of one kernel must not overlap: they are __restrict__, except
       atomic ones, which other threads write concurrently by design. */
    stmt(&un, "%s%s *%s%s = args.%s;", pp->access == GG_ACCESS_IN ? "const " : "",
                   ggi_dtype_ctype(pp->dtype), pp->access == GG_ACCESS_ATOMIC ? "" : "__restrict__ ",
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
    stmt(&scratch, "%s *__restrict__ %s = (%s *)(g.smem + %u);", ggi_dtype_ctype(sp->dtype),
                   sp->name, ggi_dtype_ctype(sp->dtype), (unsigned)soff);
    view_unpack(&scratch, &mac, &undef, sp, a);
    uint64_t n = ggi_dtype_size(sp->dtype);
    for (int dim = 0; dim < sp->rank; dim++) n *= (uint64_t)sp->ext[dim].value;
    soff += (uint32_t)((n + 15) / 16 * 16);
  }

  int rc = 0;
  rc |= ggi_dict_set(dict, "NAME", k->name);
  rc |= ggi_dict_set(dict, "NS", afmt(a, GGI_NS_PREFIX "%s", k->name));
  rc |= ggi_dict_set(dict, "SYMBOL", afmt(a, "gg_%s", k->name));
  rc |= ggi_dict_set(dict, "ARGS_T", afmt(a, "gg_args_%s", k->name));
  rc |= ggi_dict_set(dict, "ARGS_FIELDS", buf_to_arena(a, &fields));
  rc |= ggi_dict_set(dict, "UNPACK", buf_to_arena(a, &un));
  rc |= ggi_dict_set(dict, "VIEW_MACROS", buf_to_arena(a, &mac));
  rc |= ggi_dict_set(dict, "VIEW_UNDEFS", buf_to_arena(a, &undef));
  rc |= ggi_dict_set(dict, "BLOCK", afmt(a, "%d", k->spec.block));
  /* the body in NS a classic or cooperative launch calls (a plan may name
   * its own, e.g. the scan's for a whole block) */
  rc |= ggi_dict_set(dict, "LAUNCH_BODY", "gg_body");
  rc |= ggi_dict_set(dict, "ITEMS", afmt(a, "%d", k->spec.items));
  rc |= ggi_dict_set(dict, "VECTOR", afmt(a, "%d", k->spec.vector));
  rc |= ggi_dict_set(dict, "RANK", afmt(a, "%d", k->rank));
  rc |= ggi_dict_set(dict, "WORK", work_expr(k, a));
  rc |= ggi_dict_set(dict, "INDEX_DECODE", index_decode(k, a));
  rc |= ggi_dict_set(dict, "BODY", statements(a, m, k->body, k->body_line));
  rc |= ggi_dict_set(dict, "TARGET", target == GGI_TARGET_HIP ? "hip" : "cuda");
  /* the plan's PDL decision (plan.c, pdl_ready); CUDA only: HIP has no
     programmatic dependent launch */
  rc |= ggi_dict_set(dict, "PDL_ENTRY", (p->features & GG_FEAT_PDL) && target == GGI_TARGET_CUDA
                                            ? "gg_pdl_entry();\n  "
                                            : "");
  const ggi_pattern_row *row = ggi_pattern_of(k->pattern);
  if (row->props & GGI_PAT_TEAMS) {
    rc |= ggi_dict_set(dict, "SCRATCH", buf_to_arena(a, &scratch));
    rc |= ggi_dict_set(dict, "SCRATCH_BYTES", afmt(a, "%u", (unsigned)soff));
  } else {
    ggi_buf_free(&scratch);
  }
  if (row->props & GGI_PAT_LEAGUE)
    rc |= ggi_dict_set(dict, "LEAGUE", afmt(a, "(long long)%s", extent_expr(a, &k->league)));
  if (ggi_has_reduction(k)) rc |= reduce_keys(m, k, dict, a);
  if (row->keys) rc |= row->keys(m, k, dict, a);
  for (int i = 0; i < p->nvars; i++) rc |= ggi_dict_set(dict, p->keys[i], p->values[i]);
  for (int i = 0; i < dict->n; i++)
    if (!dict->values[i]) rc = -1;
  if (rc) return ggi_fail(d, "kernel \"%s\": out of memory or too many template keys", k->name);
  return 0;
}

