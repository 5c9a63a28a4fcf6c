/* body_check.c - see body_check.h: the scan of a body's views. */
#include "body_check.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "text_rules.h"
#include "vocab.h"

typedef struct view {
  const ggi_param *p;
  int read_only; /* a params view with access = "in" */
  int off;       /* #define'd or #undef'd by the text: no longer the view's macro */
  int shadowed;  /* declared by the text (float x[4];): V(i) may index that */
} view;

#define GGI_BODY_MACROS 64

typedef struct scan {
  const char *s;
  size_t n;
  int cond;   /* depth of #if/#ifdef/#ifndef groups: text there may not be compiled */
  int unsure; /* too many macros of the body's own to follow: report nothing */
  int nmac;   /* function-like macros the body #defines: [mac_at, mac_at + mac_len) */
  size_t mac_at[GGI_BODY_MACROS], mac_len[GGI_BODY_MACROS];
  int base_line;
  view *v;
  int nv;
  size_t *close; /* close[p]: the ')' of the '(' at p (n when unbalanced); NULL: find it */
  int *nargs;    /* nargs[p]: that call's macro arguments */
  const char *where; /* "body", "value" */
  int *line;
  ggi_diag *d;
} scan;

static view *find_view(scan *sc, const char *id, size_t len)
{
  for (int i = 0; i < sc->nv; i++)
    if (strlen(sc->v[i].p->name) == len && memcmp(sc->v[i].p->name, id, len) == 0) return &sc->v[i];
  return NULL;
}

/* The text [a, b) with its runs of white space made one space, shortened
 * to fit, for messages. */
static void excerpt(const scan *sc, size_t a, size_t b, char *out, size_t size)
{
  size_t k = 0;
  int space = 0, cut = 0;
  for (size_t i = a; i < b && !cut; i++) {
    char c = sc->s[i];
    if (ggi_is_space(c)) {
      space = k > 0;
      continue;
    }
    if (k + space + 5 > size) cut = 1;
    else {
      if (space) out[k++] = ' ';
      out[k++] = c;
      space = 0;
    }
  }
  if (cut) memcpy(out + k, "...", 3), k += 3;
  out[k] = 0;
}

/* "f32[n][4]" */
static void type_text(const ggi_param *p, char *out, size_t size)
{
  size_t k = (size_t)snprintf(out, size, "%s", ggi_dtype_name(p->dtype));
  for (int r = 0; r < p->rank && k < size; r++) {
    int w = p->ext[r].name ? snprintf(out + k, size - k, "[%s]", p->ext[r].name)
                           : snprintf(out + k, size - k, "[%lld]", (long long)p->ext[r].value);
    if (w < 0) break;
    k += (size_t)w;
  }
}

/* The call whose '(' is at p: the index of its ')' (n when unbalanced)
 * and its macro arguments, counted as the preprocessor does: commas
 * outside nested parentheses (brackets and braces do not nest), none for
 * an empty call.  Walked from p when there is no table. */
static size_t call_walk(const scan *sc, size_t p, int *nargs)
{
  int depth = 0, commas = 0, blank = 1;
  for (size_t i = p; i < sc->n;) {
    ggi_tok k;
    size_t e = ggi_token(sc->s, sc->n, i, &k);
    char c = sc->s[i];
    if (k == GGI_T_PUNCT && c == '(') depth++;
    else if (k == GGI_T_PUNCT && c == ')' && --depth == 0) {
      *nargs = blank ? 0 : commas + 1;
      return i;
    } else if (k == GGI_T_PUNCT && c == ',' && depth == 1) commas++;
    if (i > p && k != GGI_T_SPACE && k != GGI_T_COMMENT) blank = 0;
    i = e;
  }
  return sc->n;
}

static size_t call_end(const scan *sc, size_t p, int *nargs)
{
  if (!sc->close) return call_walk(sc, p, nargs);
  *nargs = sc->nargs[p];
  return sc->close[p];
}

/* call_walk's answer for every '(' of the text, in one pass with a stack
 * of open calls: walking from each '(' would take time quadratic in the
 * nesting (y(y(y(... 20 000 deep took 12 s).  Leaves sc->close NULL when
 * memory is short: call_end then walks. */
static void call_table(scan *sc)
{
  size_t n = sc->n, *open = malloc((n ? n : 1) * sizeof *open);
  sc->close = malloc((n ? n : 1) * sizeof *sc->close);
  sc->nargs = malloc((n ? n : 1) * sizeof *sc->nargs);
  if (!open || !sc->close || !sc->nargs) {
    free(open), free(sc->close), free(sc->nargs);
    sc->close = NULL, sc->nargs = NULL;
    return;
  }
  size_t depth = 0;
  for (size_t i = 0; i < n;) {
    ggi_tok k;
    size_t e = ggi_token(sc->s, n, i, &k);
    char c = sc->s[i];
    int sig = k != GGI_T_SPACE && k != GGI_T_COMMENT;
    if (k == GGI_T_PUNCT && c == ')' && depth > 0) {
      size_t at = open[--depth];
      sc->close[at] = i;
      sc->nargs[at] = sc->nargs[at] < 0 ? 0 : sc->nargs[at];
    } else {
      if (sig && depth > 0 && sc->nargs[open[depth - 1]] < 0)
        sc->nargs[open[depth - 1]] = 1; /* the call is not empty */
      if (k == GGI_T_PUNCT && c == ',' && depth > 0) sc->nargs[open[depth - 1]]++;
      if (k == GGI_T_PUNCT && c == '(') {
        sc->close[i] = n; /* until its ')' comes */
        sc->nargs[i] = -1; /* empty so far */
        open[depth++] = i;
      }
    }
    i = e;
  }
  free(open);
}

/* The assignment operator at p (=, op=, <<=, >>=, ++, --), or NULL. */
static const char *assign_at(const scan *sc, size_t p)
{
  static const char *const ops[] = {"<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
                                    "|=", "^=", NULL};
  const char *s = sc->s + p;
  size_t left = sc->n - p;
  for (int i = 0; ops[i]; i++)
    if (left >= strlen(ops[i]) && memcmp(s, ops[i], strlen(ops[i])) == 0) return ops[i];
  if (left >= 1 && s[0] == '=' && !(left >= 2 && s[1] == '=')) return "=";
  return NULL;
}

static int report(scan *sc, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int report(scan *sc, size_t at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ggi_vfail(sc->d, fmt, ap);
  va_end(ap);
  int line = sc->base_line;
  for (size_t i = 0; i < at && i < sc->n; i++) line += sc->s[i] == '\n';
  *sc->line = line;
  return -1;
}

/* Whether [a, b) names one of the CUDA/HIP atomic functions, each of
 * which writes through its first argument, a pointer to non-const. */
static int atomic_name(const scan *sc, size_t a, size_t b)
{
  static const char *const ops[] = {"Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS",
                                    "And", "Or", "Xor", NULL};
  static const char *const scopes[] = {"", "_block", "_system", NULL};
  char name[40];
  for (int i = 0; ops[i]; i++)
    for (int j = 0; scopes[j]; j++) {
      int w = snprintf(name, sizeof name, "atomic%s%s", ops[i], scopes[j]);
      if ((size_t)w == b - a && memcmp(sc->s + a, name, b - a) == 0) return 1;
    }
  return 0;
}

/* View v named at [a, b); incdec: the ++ or -- just before it, or NULL;
 * atomic: the atomic function whose first argument starts with &v, or
 * NULL. */
static int check_use(scan *sc, const view *v, size_t a, size_t b, const char *incdec,
                     const char *atomic)
{
  const ggi_param *p = v->p;
  static const char *const idx[] = {"(i)", "(i, j)", "(i, j, k)"};
  size_t open = ggi_skip_space(sc->s, sc->n, b);
  if (open >= sc->n || sc->s[open] != '(') return 0; /* not the macro: the compiler's business */
  int nidx;
  size_t close = call_end(sc, open, &nidx);
  if (close >= sc->n) return 0; /* unbalanced: the compiler says where */
  char call[80], type[64];
  const char *good = p->rank >= 1 && p->rank <= 3 ? idx[p->rank - 1] : "(...)";
  type_text(p, type, sizeof type);
  size_t next = ggi_skip_space(sc->s, sc->n, close + 1);
  if (next < sc->n && sc->s[next] == '(') {
    int more;
    size_t end = call_end(sc, next, &more);
    excerpt(sc, a, end < sc->n ? end + 1 : sc->n, call, sizeof call);
    return report(sc, a, "view \"%s\" (%s) is indexed in two calls in the %s, %s: a view takes "
                  "its %d ind%s in one call, as in %s%s", p->name, type, sc->where, call, p->rank,
                  p->rank == 1 ? "ex" : "ices", p->name, good);
  }
  if (nidx != p->rank) {
    excerpt(sc, a, close + 1, call, sizeof call);
    return report(sc, a, "view \"%s\" has rank %d (%s), but %s in the %s gives it %d ind%s: "
                  "index it as in %s%s", p->name, p->rank, type, call, sc->where, nidx,
                  nidx == 1 ? "ex" : "ices", p->name, good);
  }
  if (!v->read_only || v->shadowed) return 0;
  const char *op = next < sc->n ? assign_at(sc, next) : NULL;
  int passed = atomic && next < sc->n && sc->s[next] == ',';
  if (!passed && !incdec && !op) return 0; /* a read */
  excerpt(sc, a, close + 1, call, sizeof call); /* the messages only: on the way out */
  if (passed)
    return report(sc, a, "the %s passes &%s to %s, which writes it, but view \"%s\" (%s) is "
                  "declared access = \"in\" (read only): declare it access = \"atomic\" (or "
                  "\"inout\")", sc->where, call, atomic, p->name, type);
  char what[100];
  if (incdec) snprintf(what, sizeof what, "%s%s", incdec, call);
  else if ((op[0] == '+' || op[0] == '-') && op[1] == op[0]) snprintf(what, sizeof what, "%s%s", call, op);
  else snprintf(what, sizeof what, "%s %s ...", call, op);
  return report(sc, a, "the %s writes view \"%s\" (%s), which is declared access = \"in\" (read "
                "only): declare it access = \"out\" or \"inout\" to write it", sc->where, p->name,
                what);
}

/* The preprocessor directive whose '#' is at p.  #define or #undef of a
 * view turns its check off; a function-like #define is remembered, since
 * its arguments may be stringified (#a) or pasted (a##b) rather than
 * expanded; #if, #ifdef and #ifndef open a group whose text the scan
 * cannot tell is compiled (#if 0), #endif closes it.  Returns the end of
 * the directive. */
static size_t directive(scan *sc, size_t p)
{
  size_t q = ggi_skip_space(sc->s, sc->n, p + 1), w = q;
  while (w < sc->n && ggi_is_id(sc->s[w])) w++;
  if (ggi_same_word(sc->s, q, w, "if") || ggi_same_word(sc->s, q, w, "ifdef") || ggi_same_word(sc->s, q, w, "ifndef")) sc->cond++;
  else if (ggi_same_word(sc->s, q, w, "endif") && sc->cond > 0) sc->cond--;
  else if (ggi_same_word(sc->s, q, w, "define") || ggi_same_word(sc->s, q, w, "undef")) {
    size_t a = ggi_skip_space(sc->s, sc->n, w), b = a;
    while (b < sc->n && ggi_is_id(sc->s[b])) b++;
    view *v = b > a ? find_view(sc, sc->s + a, b - a) : NULL;
    if (v) v->off = 1;
    if (ggi_same_word(sc->s, q, w, "define") && b > a && b < sc->n && sc->s[b] == '(') {
      if (sc->nmac == GGI_BODY_MACROS) sc->unsure = 1;
      else sc->mac_at[sc->nmac] = a, sc->mac_len[sc->nmac++] = b - a;
    }
  }
  /* To the end of the line, its continuations and the comments that
   * start on it (a block comment may span lines). */
  while (w < sc->n && sc->s[w] != '\n') {
    ggi_tok k;
    w = ggi_token(sc->s, sc->n, w, &k);
  }
  return w;
}

/* Whether [a, b) names a function-like macro the body defined. */
static int body_macro(const scan *sc, size_t a, size_t b)
{
  for (int i = 0; i < sc->nmac; i++)
    if (sc->mac_len[i] == b - a && memcmp(sc->s + sc->mac_at[i], sc->s + a, b - a) == 0) return 1;
  return 0;
}

/* Whether the tokens before a view's name declare that name as a local
 * (float x[4], float *x, auto &x, float x(3)): the view's macro then
 * indexes the local, which may be written.  last: the last tokens, latest
 * first.  A word that is not a type (return x, a and x) declares nothing. */
static int declared(const scan *sc, const size_t *last, const size_t *last_end, int nlast)
{
  static const char *const not_types[] = {
      "return", "sizeof", "alignof", "case", "throw", "new", "delete", "else", "do", "goto",
      "typeid", "noexcept", "co_return", "co_yield", "co_await", "and", "or", "not", "xor",
      "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "operator", NULL};
  int t = 0; /* the token that should be a type: float x, or float *x / auto &x */
  if (nlast >= 2 && last_end[0] - last[0] == 1 && (sc->s[last[0]] == '*' || sc->s[last[0]] == '&')) t = 1;
  if (nlast <= t || !ggi_is_id0(sc->s[last[t]])) return 0;
  for (int i = 0; not_types[i]; i++)
    if (ggi_same_word(sc->s, last[t], last_end[t], not_types[i])) return 0;
  return 1;
}

static int scan_tokens(scan *sc)
{
  int line_start = 1;
  const char *incdec = NULL; /* the last token, when it was ++ or -- */
  size_t last[3] = {0}, last_end[3] = {0}; /* the last three tokens, latest first */
  int nlast = 0;
  char atomic[40];
  for (size_t p = 0; p < sc->n;) {
    ggi_tok k;
    size_t e = ggi_token(sc->s, sc->n, p, &k);
    if (k == GGI_T_SPACE || k == GGI_T_COMMENT) {
      for (size_t i = p; i < e; i++) line_start |= sc->s[i] == '\n';
      p = e;
      continue;
    }
    if (k == GGI_T_PUNCT && sc->s[p] == '#' && line_start) {
      p = directive(sc, p);
      continue;
    }
    line_start = 0;
    if (k == GGI_T_IDENT && body_macro(sc, p, e)) { /* its arguments are the macro's business */
      size_t open = ggi_skip_space(sc->s, sc->n, e);
      int nargs;
      if (open < sc->n && sc->s[open] == '(') e = call_end(sc, open, &nargs) + 1;
      if (e > sc->n) e = sc->n;
    } else if (k == GGI_T_IDENT && !sc->cond && !sc->unsure) {
      view *v = find_view(sc, sc->s + p, e - p);
      if (v && declared(sc, last, last_end, nlast)) v->shadowed = 1;
      int call = v && nlast == 3 && sc->s[last[0]] == '&' && last_end[0] - last[0] == 1 &&
                 sc->s[last[1]] == '(' && atomic_name(sc, last[2], last_end[2]);
      if (call) snprintf(atomic, sizeof atomic, "%.*s", (int)(last_end[2] - last[2]), sc->s + last[2]);
      if (v && !v->off && check_use(sc, v, p, e, incdec, call ? atomic : NULL)) return -1;
    }
    incdec = k == GGI_T_PUNCT && e - p == 2 ? (sc->s[p] == '+' ? "++" : "--") : NULL;
    for (int i = 2; i > 0; i--) last[i] = last[i - 1], last_end[i] = last_end[i - 1];
    last[0] = p, last_end[0] = e, nlast += nlast < 3;
    p = e;
  }
  return 0;
}

static int scan_text(scan *sc, const char *text, int base_line, const char *where)
{
  sc->s = text;
  sc->n = strlen(text);
  sc->base_line = base_line;
  sc->where = where;
  sc->cond = sc->unsure = sc->nmac = 0;
  for (int i = 0; i < sc->nv; i++) sc->v[i].off = sc->v[i].shadowed = 0;
  call_table(sc);
  int rc = scan_tokens(sc);
  free(sc->close), free(sc->nargs);
  sc->close = NULL, sc->nargs = NULL;
  return rc;
}

int ggi_body_check(const ggi_kernel *kn, int *line, ggi_diag *d)
{
  int nv = kn->nparams + kn->nscratch, rc = 0;
  view *v = calloc((size_t)(nv ? nv : 1), sizeof *v);
  if (!v) return 0; /* the check is a courtesy: the compiler still reports */
  scan sc = {.v = v, .line = line, .d = d};
  for (int i = 0; i < kn->nparams; i++)
    if (kn->params[i].kind == GG_PARAM_VIEW && kn->params[i].rank >= 1)
      v[sc.nv].read_only = kn->params[i].access == GG_ACCESS_IN, v[sc.nv++].p = &kn->params[i];
  for (int i = 0; i < kn->nscratch; i++) /* scratch: shared memory the team writes */
    if (kn->scratch[i].kind == GG_PARAM_VIEW && kn->scratch[i].rank >= 1) v[sc.nv++].p = &kn->scratch[i];
  if (kn->body) rc = ggi_text_check(kn->body, kn->body_line, "body", kn->targets, line, d);
  for (int i = 0; rc == 0 && i < kn->nvalues; i++)
    if (kn->values[i]) rc = ggi_text_check(kn->values[i], kn->value_line, "value", kn->targets, line, d);
  if (rc == 0 && kn->body) rc = scan_text(&sc, kn->body, kn->body_line, "body");
  for (int i = 0; rc == 0 && i < kn->nvalues; i++)
    if (kn->values[i]) rc = scan_text(&sc, kn->values[i], kn->value_line, "value");
  free(v);
  return rc;
}
