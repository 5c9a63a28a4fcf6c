/* body_check.c - see body_check.h. */
#include "patterns.h"
#include "body_check.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the body scan ---- */

/* Identifiers as the compilers take them: with '$' and UTF-8 letters too
 * (clang accepts both), so that `$x(a, b)` is never read as a view x. */
static int is_id0(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_id(char c) { return is_id0(c) || is_digit(c); }
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

typedef enum tok { T_END, T_SPACE, T_COMMENT, T_LITERAL, T_NUMBER, T_IDENT, T_PUNCT } tok;

/* A raw string R"delim( ... )delim" whose prefix identifier is [a, p)
 * and whose '"' is at p: its end, or 0 when [a, p) is no raw prefix. */
static size_t raw_end(const char *s, size_t n, size_t a, size_t p)
{
  static const char *const prefixes[] = {"R", "LR", "uR", "UR", "u8R", NULL};
  int raw = 0;
  for (int i = 0; prefixes[i]; i++)
    raw |= strlen(prefixes[i]) == p - a && memcmp(prefixes[i], s + a, p - a) == 0;
  if (!raw || p >= n || s[p] != '"') return 0;
  size_t d = p + 1;
  while (d < n && d - p <= 17 && s[d] != '(') d++;
  if (d >= n || s[d] != '(') return 0; /* malformed: the compiler says so */
  size_t dlen = d - p - 1;
  for (size_t q = d + 1; q + dlen + 1 < n; q++)
    if (s[q] == ')' && memcmp(s + q + 1, s + p + 1, dlen) == 0 && s[q + 1 + dlen] == '"')
      return q + 2 + dlen;
  return n;
}

/* The token at p (p < n) as the preprocessor splits text: its kind and
 * its end.  Unterminated comments and literals end the text. */
static size_t token(const char *s, size_t n, size_t p, tok *kind)
{
  char c = s[p];
  if (is_space(c) || (c == '\\' && p + 1 < n && (s[p + 1] == '\n' || s[p + 1] == '\r'))) {
    *kind = T_SPACE;
    return p + (c == '\\' ? 2 : 1);
  }
  if (c == '/' && p + 1 < n && s[p + 1] == '/') {
    *kind = T_COMMENT;
    while (p < n && s[p] != '\n') p++;
    return p;
  }
  if (c == '/' && p + 1 < n && s[p + 1] == '*') {
    *kind = T_COMMENT;
    for (p += 2; p + 1 < n && !(s[p] == '*' && s[p + 1] == '/'); p++) {}
    return p + 1 < n ? p + 2 : n;
  }
  if (c == '"' || c == '\'') {
    *kind = T_LITERAL;
    for (p++; p < n && s[p] != c && s[p] != '\n'; p++)
      if (s[p] == '\\' && p + 1 < n) p++;
    return p < n && s[p] == c ? p + 1 : p;
  }
  if (is_digit(c) || (c == '.' && p + 1 < n && is_digit(s[p + 1]))) { /* pp-number */
    *kind = T_NUMBER;
    for (p++; p < n; p++) {
      char d = s[p];
      if ((d == '+' || d == '-') && strchr("eEpP", s[p - 1])) continue;
      if (d == '\'' && p + 1 < n && is_id(s[p + 1])) continue; /* 1'000 */
      if (!is_id(d) && d != '.') break;
    }
    return p;
  }
  if (is_id0(c)) {
    size_t e = p;
    while (e < n && is_id(s[e])) e++;
    size_t r = raw_end(s, n, p, e);
    *kind = r ? T_LITERAL : T_IDENT;
    return r ? r : e;
  }
  *kind = T_PUNCT;
  if ((c == '+' || c == '-') && p + 1 < n && s[p + 1] == c) return p + 2; /* ++ -- */
  return p + 1;
}

/* The next token at or after p that is not space or a comment. */
static size_t skip_space(const char *s, size_t n, size_t p)
{
  while (p < n) {
    tok k;
    size_t e = token(s, n, p, &k);
    if (k != T_SPACE && k != T_COMMENT) break;
    p = e;
  }
  return p;
}

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
  char *msg;
  size_t size;
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
    if (is_space(c)) {
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
  static const char *const names[] = {"i32", "u32", "i64", "u64", "f32", "f64", "f16", "bf16"};
  size_t k = (size_t)snprintf(out, size, "%s", (unsigned)p->dtype < 8 ? names[p->dtype] : "?");
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
    tok k;
    size_t e = token(sc->s, sc->n, i, &k);
    char c = sc->s[i];
    if (k == T_PUNCT && c == '(') depth++;
    else if (k == T_PUNCT && c == ')' && --depth == 0) {
      *nargs = blank ? 0 : commas + 1;
      return i;
    } else if (k == T_PUNCT && c == ',' && depth == 1) commas++;
    if (i > p && k != T_SPACE && k != T_COMMENT) blank = 0;
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
    tok k;
    size_t e = token(sc->s, n, i, &k);
    char c = sc->s[i];
    int sig = k != T_SPACE && k != T_COMMENT;
    if (k == T_PUNCT && c == ')' && depth > 0) {
      size_t at = open[--depth];
      sc->close[at] = i;
      sc->nargs[at] = sc->nargs[at] < 0 ? 0 : sc->nargs[at];
    } else {
      if (sig && depth > 0 && sc->nargs[open[depth - 1]] < 0)
        sc->nargs[open[depth - 1]] = 1; /* the call is not empty */
      if (k == T_PUNCT && c == ',' && depth > 0) sc->nargs[open[depth - 1]]++;
      if (k == T_PUNCT && c == '(') {
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
  vsnprintf(sc->msg, sc->size, fmt, ap);
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
  size_t open = skip_space(sc->s, sc->n, b);
  if (open >= sc->n || sc->s[open] != '(') return 0; /* not the macro: the compiler's business */
  int nidx;
  size_t close = call_end(sc, open, &nidx);
  if (close >= sc->n) return 0; /* unbalanced: the compiler says where */
  char call[80], type[64];
  const char *good = p->rank >= 1 && p->rank <= 3 ? idx[p->rank - 1] : "(...)";
  type_text(p, type, sizeof type);
  size_t next = skip_space(sc->s, sc->n, close + 1);
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

static int is_word(const scan *sc, size_t a, size_t b, const char *w)
{
  return b - a == strlen(w) && memcmp(sc->s + a, w, b - a) == 0;
}

/* The preprocessor directive whose '#' is at p.  #define or #undef of a
 * view turns its check off; a function-like #define is remembered, since
 * its arguments may be stringified (#a) or pasted (a##b) rather than
 * expanded; #if, #ifdef and #ifndef open a group whose text the scan
 * cannot tell is compiled (#if 0), #endif closes it.  Returns the end of
 * the directive. */
static size_t directive(scan *sc, size_t p)
{
  size_t q = skip_space(sc->s, sc->n, p + 1), w = q;
  while (w < sc->n && is_id(sc->s[w])) w++;
  if (is_word(sc, q, w, "if") || is_word(sc, q, w, "ifdef") || is_word(sc, q, w, "ifndef")) sc->cond++;
  else if (is_word(sc, q, w, "endif") && sc->cond > 0) sc->cond--;
  else if (is_word(sc, q, w, "define") || is_word(sc, q, w, "undef")) {
    size_t a = skip_space(sc->s, sc->n, w), b = a;
    while (b < sc->n && is_id(sc->s[b])) b++;
    view *v = b > a ? find_view(sc, sc->s + a, b - a) : NULL;
    if (v) v->off = 1;
    if (is_word(sc, q, w, "define") && b > a && b < sc->n && sc->s[b] == '(') {
      if (sc->nmac == GGI_BODY_MACROS) sc->unsure = 1;
      else sc->mac_at[sc->nmac] = a, sc->mac_len[sc->nmac++] = b - a;
    }
  }
  /* To the end of the line, its continuations and the comments that
   * start on it (a block comment may span lines). */
  while (w < sc->n && sc->s[w] != '\n') {
    tok k;
    w = token(sc->s, sc->n, w, &k);
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
  if (nlast <= t || !is_id0(sc->s[last[t]])) return 0;
  for (int i = 0; not_types[i]; i++)
    if (is_word(sc, last[t], last_end[t], not_types[i])) return 0;
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
    tok k;
    size_t e = token(sc->s, sc->n, p, &k);
    if (k == T_SPACE || k == T_COMMENT) {
      for (size_t i = p; i < e; i++) line_start |= sc->s[i] == '\n';
      p = e;
      continue;
    }
    if (k == T_PUNCT && sc->s[p] == '#' && line_start) {
      p = directive(sc, p);
      continue;
    }
    line_start = 0;
    if (k == T_IDENT && body_macro(sc, p, e)) { /* its arguments are the macro's business */
      size_t open = skip_space(sc->s, sc->n, e);
      int nargs;
      if (open < sc->n && sc->s[open] == '(') e = call_end(sc, open, &nargs) + 1;
      if (e > sc->n) e = sc->n;
    } else if (k == T_IDENT && !sc->cond && !sc->unsure) {
      view *v = find_view(sc, sc->s + p, e - p);
      if (v && declared(sc, last, last_end, nlast)) v->shadowed = 1;
      int call = v && nlast == 3 && sc->s[last[0]] == '&' && last_end[0] - last[0] == 1 &&
                 sc->s[last[1]] == '(' && atomic_name(sc, last[2], last_end[2]);
      if (call) snprintf(atomic, sizeof atomic, "%.*s", (int)(last_end[2] - last[2]), sc->s + last[2]);
      if (v && !v->off && check_use(sc, v, p, e, incdec, call ? atomic : NULL)) return -1;
    }
    incdec = k == T_PUNCT && e - p == 2 ? (sc->s[p] == '+' ? "++" : "--") : NULL;
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

/* ---- the text as text: closed, and its macros its own ---- */

/* text with its line splices (a backslash before a newline) removed, as
 * the preprocessor's second phase does, so that a directive written
 * across lines (#def\<newline>ine) reads as one.  splice[k]: where the
 * k-th removed newline was, in the copy. */
typedef struct spliced {
  char *s;
  size_t n, *splice, nsplice;
} spliced;

static int splice_open(spliced *t, const char *text)
{
  size_t n = strlen(text);
  t->s = malloc(n + 1), t->splice = malloc((n / 2 + 1) * sizeof *t->splice);
  t->n = t->nsplice = 0;
  if (!t->s || !t->splice) return -1;
  for (size_t i = 0; i < n; i++) {
    size_t nl = text[i] == '\\' && i + 1 < n && text[i + 1] == '\n'                  ? 1
                : text[i] == '\\' && i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n' ? 2
                                                                                         : 0;
    if (nl) {
      t->splice[t->nsplice++] = t->n;
      i += nl;
      continue;
    }
    t->s[t->n++] = text[i];
  }
  t->s[t->n] = '\0';
  return 0;
}

static void splice_free(spliced *t) { free(t->s), free(t->splice); }

/* The file line of position p of the copy. */
static int splice_line(const spliced *t, int base_line, size_t p)
{
  int line = base_line;
  for (size_t i = 0; i < p && i < t->n; i++) line += t->s[i] == '\n';
  for (size_t k = 0; k < t->nsplice && t->splice[k] <= p; k++) line++;
  return line;
}

/* The directive name after a '#' (or its digraph "%:") that begins a
 * line at p: [*a, *b).  0 when p begins no directive. */
static int directive_name(const char *s, size_t n, size_t p, size_t *a, size_t *b)
{
  if (s[p] == '#') p += 1;
  else if (s[p] == '%' && p + 1 < n && s[p + 1] == ':') p += 2;
  else return 0;
  *a = *b = skip_space(s, n, p);
  while (*b < n && is_id(s[*b])) ++*b;
  return 1;
}

static int word_is(const char *s, size_t a, size_t b, const char *w)
{
  return b - a == strlen(w) && memcmp(s + a, w, b - a) == 0;
}

/* Calls each(ctx, name, len) for every name the text #defines, in order,
 * repeats included. */
static void each_macro(const spliced *t, void (*each)(void *, const char *, size_t), void *ctx)
{
  int line_start = 1;
  for (size_t p = 0; p < t->n;) {
    tok k;
    size_t e = token(t->s, t->n, p, &k), a, b;
    if (k == T_SPACE || k == T_COMMENT) {
      for (size_t i = p; i < e; i++) line_start |= t->s[i] == '\n';
    } else {
      if (line_start && directive_name(t->s, t->n, p, &a, &b) && word_is(t->s, a, b, "define")) {
        size_t m = skip_space(t->s, t->n, b), me = m;
        while (me < t->n && is_id(t->s[me])) me++;
        if (me > m) each(ctx, t->s + m, me - m);
      }
      line_start = 0;
    }
    p = e;
  }
}

void ggi_text_defines(const char *text, void (*each)(void *ctx, const char *name, size_t len),
                     void *ctx)
{
  spliced t;
  if (text && splice_open(&t, text) == 0) each_macro(&t, each, ctx);
  if (text) splice_free(&t);
}

/* What no body or value may hold, whatever it compiles to.  The scan
 * must read the text as every compiler does, so what compilers read
 * differently is refused too:
 *   - #include (and its kin, __has_include, #pragma GCC dependency): the
 *     GPU compiler runs on the user's machine at start-up, and a workload
 *     may not make it read or probe files there;
 *   - a #define or #undef of a name of gpugen's (gg_..., GG_...): its code
 *     and the body's share one translation unit, and gpugen #undefs every
 *     name a text #defines after the text (dict.c, snippet), so that one
 *     body's macros never reach another kernel or gpugen's own code;
 *   - #pragma push_macro / pop_macro and _Pragma: they could bring back
 *     macros behind the scan's back (hiprtc honours the pragmas; NVRTC
 *     ignores them); and token pasting (## and %:%:), which could spell
 *     _Pragma or __has_include from two halves no check sees;
 *   - a comment or literal that does not end, a (, [ or { (digraphs too)
 *     that does not close, a closer with no opener, an #if without its
 *     #endif, or a #define whose replacement does not close its own
 *     brackets: the text would reach into the code gpugen puts around it;
 *   - a lone carriage return, a backslash with blanks after it at the end
 *     of a line, a line splice inside a raw string and a \u name: clang
 *     and NVRTC read them differently (a line end, a splice, a name).
 *   - a '#' after a block comment that spans lines (NVRTC starts a
 *     directive there, clang does not), and a raw string whose delimiter
 *     is not up to 16 plain characters (NVRTC ignores the R).
 *   - a number in a directive that NVRTC or clang reads otherwise or
 *     refuses: #line's (decimal 1 to 2147483647, written out), an #if's
 *     or #elif's (an integer literal of at most 64 bits, no digit
 *     separator, no suffix but u, l, ll), an unroll count's (an integer
 *     from 1 to 2147483647, or a name, with no operator).
 * An #if group's branches are checked from the same brackets each and
 * must leave the same ones open; an #if 0 group is skipped, as the
 * compiler skips it. */

/* Whether the raw string literal [p, e) ends with its )delim". */
static int raw_closed(const char *s, size_t p, size_t e)
{
  const char *q = memchr(s + p, '"', e - p), *open = q ? memchr(q, '(', (size_t)(s + e - q)) : NULL;
  if (!open) return 0;
  size_t dlen = (size_t)(open - q - 1);
  return (size_t)(s + e - open) >= dlen + 3 && s[e - 1] == '"' && s[e - 2 - dlen] == ')' &&
         memcmp(s + e - 1 - dlen, q + 1, dlen) == 0;
}

/* The bracket at p, as the compiler reads it (digraphs <% %> <: :> too;
 * <:: is < :: unless a : or > follows): one of ( ) [ ] { }, and *w its
 * length; 0 when p holds none. */
static char bracket_at(const char *s, size_t n, size_t p, size_t *w)
{
  char c = s[p], d = p + 1 < n ? s[p + 1] : 0;
  *w = 1;
  if (strchr("()[]{}", c)) return c;
  *w = 2;
  if (c == '<' && d == '%') return '{';
  if (c == '%' && d == '>') return '}';
  if (c == ':' && d == '>') return ']';
  if (c == '<' && d == ':') {
    char f = p + 3 < n ? s[p + 3] : 0;
    if (p + 2 < n && s[p + 2] == ':' && f != ':' && f != '>') return 0;
    return '[';
  }
  return 0;
}

static char closer_of(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

typedef struct tcheck {
  const spliced *t;
  const char *where;
  char *msg;
  size_t size;
  size_t at;             /* where the problem is */
  char *open;            /* the brackets not yet closed ... */
  size_t *open_at, nopen; /* ... where they opened, how many */
  size_t *grp_depth;     /* per open #if group: nopen at its #if */
  long long *grp_end;    /* nopen at the end of its first live branch; -1: none yet */
  char *grp_skip;        /* its current branch is an #if 0 / #elif 0, skipped */
  size_t *grp_at;        /* where its #if is */
  int ngrp;
  unsigned targets;      /* the kernel's GGI_TARGET_* bits */
} tcheck;

static int tfail(tcheck *c, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int tfail(tcheck *c, size_t at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, c->size, fmt, ap);
  va_end(ap);
  c->at = at;
  return 1;
}

/* Names that probe files or hide a directive, wherever they stand. */
static int banned_name(tcheck *c, size_t p, size_t e)
{
  const char *s = c->t->s;
  static const char *const probes[] = {"__has_include", "__has_include_next", "__has_embed", NULL};
  if (word_is(s, p, e, "_Pragma"))
    return tfail(c, p, "_Pragma in the %s: write a #pragma on a line of its own (push_macro and "
                 "pop_macro are not allowed)", c->where);
  if ((c->targets & GGI_TARGET_HIP) &&
      (word_is(s, p, e, "asm") || word_is(s, p, e, "__asm") || word_is(s, p, e, "__asm__")))
    return tfail(c, p, "%.*s in the %s of a kernel that targets hip: AMD's assembler reads files "
                 "(.incbin, .include), and an asm string can be put together from pieces no "
                 "check sees; write it in C++ (intrinsics are fine), or give the module "
                 "targets = { \"cuda\" } for PTX asm", (int)(e - p), s + p, c->where);
  for (int i = 0; probes[i]; i++)
    if (word_is(s, p, e, probes[i]))
      return tfail(c, p, "%s in the %s: the GPU compiler runs on the user's machine at start-up, "
                   "and a workload may not make it probe files there", probes[i], c->where);
  return 0;
}

/* Whether the quoted literal [p, e) ends with its own quote (not one a
 * backslash escapes). */
static int quoted_closed(const char *s, size_t p, size_t e)
{
  for (size_t i = p + 1; i < e; i++) {
    if (s[i] == '\\') i++;
    else if (s[i] == s[p]) return i + 1 == e;
  }
  return 0;
}

/* Over the whole text, skipped groups too: what NVRTC and clang split
 * differently.  A '#' after a block comment that spans lines starts a
 * directive for NVRTC and none for clang; a raw string's delimiter of
 * other than up to 16 plain characters is a raw string to the scan and
 * not to NVRTC ("raw string indicator ignored"). */
static int compilers_agree(tcheck *c)
{
  const char *s = c->t->s;
  size_t n = c->t->n;
  int after_lines = 0; /* a block comment holding a newline, then no line end yet */
  for (size_t p = 0; p < n;) {
    tok k;
    size_t e = token(s, n, p, &k);
    int nl = memchr(s + p, '\n', e - p) != NULL;
    if (k == T_COMMENT) after_lines |= nl && s[p + 1] == '*';
    else if (k == T_SPACE) after_lines &= !nl;
    else {
      if (after_lines && (s[p] == '#' || (s[p] == '%' && p + 1 < n && s[p + 1] == ':')))
        return tfail(c, p, "a '#' after a block comment that spans lines, on the line where the "
                     "comment ends, in the %s: NVRTC reads a directive there and clang does not; "
                     "start the directive on a line of its own", c->where);
      /* here, not only in live code: in an #if 0 group too, compilers
         read a \u name into a number (1\u00e9'x' is one pp-number and a
         ' that starts a literal), where the scan ends the number */
      if (k == T_PUNCT && s[p] == '\\' && p + 1 < n && (s[p + 1] == 'u' || s[p + 1] == 'U'))
        return tfail(c, p, "a universal character name (\\%c...) outside a literal in the %s: "
                     "write the character itself", s[p + 1], c->where);
      if (k == T_NUMBER)
        for (size_t i = p; i < e; i++)
          if (s[i] == '$' || (unsigned char)s[i] >= 0x80)
            return tfail(c, i, "a number run into '$' or a non-ASCII character in the %s: "
                         "compilers end the number there, so a ' after it starts a character "
                         "literal for them and not for a reader; put a space or an operator "
                         "between them", c->where);
      if (k == T_LITERAL && is_id0(s[p])) {
        const char *q = memchr(s + p, '"', e - p);
        size_t d = q ? (size_t)(q - s) + 1 : e;
        while (d < e && s[d] != '(' && !strchr(" )\\\t\v\f\n\r", s[d])) d++;
        if (d >= e || s[d] != '(' || d - (size_t)(q - s) - 1 > 16)
          return tfail(c, p, "a raw string literal whose delimiter is not up to 16 plain characters "
                       "in the %s: compilers read it differently", c->where);
      }
      after_lines = 0;
    }
    p = e;
  }
  return 0;
}

/* A token of code (not of a directive) at [p, *e). */
static int code_token(tcheck *c, size_t p, size_t *e, tok k)
{
  const char *s = c->t->s;
  size_t n = c->t->n, w;
  char ch = s[p];
  if (k == T_IDENT) return banned_name(c, p, *e);
  if (k == T_LITERAL) {
    int raw = is_id0(ch);
    if (raw ? !raw_closed(s, p, *e) : !quoted_closed(s, p, *e))
      return tfail(c, p, "a %s literal that does not end%s in the %s",
                   ch == '\'' ? "character" : "string", raw ? "" : " on its line", c->where);
    for (size_t i = 0; raw && i < c->t->nsplice; i++)
      if (c->t->splice[i] > p && c->t->splice[i] < *e)
        return tfail(c, p, "a line splice (a backslash at the end of a line) inside a raw string "
                     "literal in the %s: compilers disagree on it; write the string on one line",
                     c->where);
    return 0;
  }
  if (ch == '\\' && p + 1 < n && (s[p + 1] == 'u' || s[p + 1] == 'U'))
    return tfail(c, p, "a universal character name (\\%c...) outside a literal in the %s: write "
                 "the character itself", s[p + 1], c->where);
  char b = bracket_at(s, n, p, &w);
  if (!b) return 0;
  *e = p + w;
  if (strchr("([{", b)) {
    c->open[c->nopen] = b, c->open_at[c->nopen++] = p;
    return 0;
  }
  size_t floor = c->ngrp ? c->grp_depth[c->ngrp - 1] : 0;
  if (c->nopen == 0)
    return tfail(c, p, "a '%.*s' in the %s that closes nothing opened in it: every (, [ and { of "
                 "the %s closes in it, since the text sits inside code of gpugen's own",
                 (int)w, s + p, c->where, c->where);
  if (closer_of(c->open[c->nopen - 1]) != b)
    return tfail(c, p, "a '%.*s' in the %s where the '%c' before it needs a '%c'", (int)w, s + p,
                 c->where, c->open[c->nopen - 1], closer_of(c->open[c->nopen - 1]));
  if (c->nopen == floor)
    return tfail(c, p, "a '%.*s' inside an #if group of the %s closes a bracket opened before "
                 "the group: open and close it on the same side of the #if", (int)w, s + p,
                 c->where);
  c->nopen--;
  return 0;
}

/* Past an #if 0 group's lines from e: at the #else, #elif or #endif that
 * ends it (its '#'), nested groups skipped whole. */
static size_t skip_group(const tcheck *c, size_t e)
{
  const char *s = c->t->s;
  size_t n = c->t->n, a, b;
  int nest = 0, line_start = 0;
  for (size_t p = e; p < n;) {
    tok k;
    size_t q = token(s, n, p, &k);
    if (k == T_SPACE || k == T_COMMENT) {
      for (size_t i = p; i < q; i++) line_start |= s[i] == '\n';
    } else {
      if (line_start && directive_name(s, n, p, &a, &b)) {
        if (word_is(s, a, b, "if") || word_is(s, a, b, "ifdef") || word_is(s, a, b, "ifndef")) nest++;
        else if (word_is(s, a, b, "endif") && nest > 0) nest--;
        else if (nest == 0 && (word_is(s, a, b, "endif") || word_is(s, a, b, "else") ||
                               word_is(s, a, b, "elif")))
          return p;
      }
      line_start = 0;
    }
    p = q;
  }
  return n;
}

/* Whether the directive's argument after b is the single token 0. */
static int arg_is_zero(const tcheck *c, size_t b, size_t *end)
{
  const char *s = c->t->s;
  size_t n = c->t->n, z = b;
  while (z < n && (s[z] == ' ' || s[z] == '\t')) z++;
  size_t ze = z;
  while (ze < n && is_id(s[ze])) ze++;
  size_t eol = ze; /* past blanks and comments to the line's end */
  while (eol < n && s[eol] != '\n') {
    tok k;
    size_t q = token(s, n, eol, &k);
    if ((k != T_SPACE && k != T_COMMENT) || memchr(s + eol, '\n', q - eol)) break;
    eol = q;
  }
  *end = ze;
  return ze == z + 1 && s[z] == '0' && (eol == n || s[eol] == '\n');
}

/* An #if, #else, #elif or #endif named [a, b), the directive at p; *e is
 * moved past a group that is never compiled (#if 0, #elif 0). */
static int group_directive(tcheck *c, size_t p, size_t a, size_t b, size_t *e)
{
  const char *s = c->t->s;
  size_t z;
  if (word_is(s, a, b, "if") || word_is(s, a, b, "ifdef") || word_is(s, a, b, "ifndef")) {
    int g = c->ngrp++;
    c->grp_depth[g] = c->nopen, c->grp_end[g] = -1, c->grp_at[g] = p;
    c->grp_skip[g] = word_is(s, a, b, "if") && arg_is_zero(c, b, &z);
    if (c->grp_skip[g]) *e = skip_group(c, z);
    return 0;
  }
  int end = word_is(s, a, b, "endif");
  if (!end && !word_is(s, a, b, "else") && !word_is(s, a, b, "elif")) return 0;
  if (c->ngrp == 0)
    return tfail(c, p, "an #%.*s in the %s with no #if before it in the %s", (int)(b - a), s + a,
                 c->where, c->where);
  int g = c->ngrp - 1;
  if (!c->grp_skip[g]) { /* a skipped branch leaves nothing open */
    if (c->grp_end[g] < 0) c->grp_end[g] = (long long)c->nopen;
    else if ((size_t)c->grp_end[g] != c->nopen)
      return tfail(c, p, "the branches of an #if group in the %s leave different brackets open: "
                   "every branch opens and closes the same ones", c->where);
  }
  if (end) { /* after the group: the brackets its live branches left open */
    if (c->grp_skip[g] && c->grp_end[g] >= 0) c->nopen = (size_t)c->grp_end[g];
    c->ngrp--;
    return 0;
  }
  c->nopen = c->grp_depth[g]; /* the next branch starts where the #if did */
  c->grp_skip[g] = word_is(s, a, b, "elif") && arg_is_zero(c, b, &z);
  if (c->grp_skip[g]) *e = skip_group(c, z);
  return 0;
}

/* A directive whose '#' is at p and whose name is [a, b): its rules, then
 * the rest of its line (comments that start on it included), *e its end. */
/* The length of the # or %: at p (0: neither). */
static size_t hash_at(const char *s, size_t n, size_t p)
{
  return s[p] == '#' ? 1 : p + 1 < n && s[p] == '%' && s[p + 1] == ':' ? 2 : 0;
}
/* The length of a token paste at p: ## or its digraph %:%: (and the mixed
 * #%: and %:#, which compilers should not paste, but the rule is not
 * worth a doubt); 0 where there is none. */
static size_t paste_at(const char *s, size_t n, size_t p)
{
  size_t w1 = hash_at(s, n, p), w2 = w1 && p + w1 < n ? hash_at(s, n, p + w1) : 0;
  return w2 ? w1 + w2 : 0;
}

/* The pragmas a workload may write: loop unrolling and diagnostics.  The
 * first word is [c0, c1), the second [d0, d1). */
static int pragma_allowed(const char *s, size_t c0, size_t c1, size_t d0, size_t d1)
{
  static const char *const one[] = {"unroll", "nounroll", "nv_diag_suppress", "nv_diag_default",
                                    "nv_diag_warning", "nv_diagnostic", "diag_suppress",
                                    "diag_default", NULL};
  for (int i = 0; one[i]; i++)
    if (word_is(s, c0, c1, one[i])) return 1;
  return (word_is(s, c0, c1, "GCC") &&
          (word_is(s, d0, d1, "unroll") || word_is(s, d0, d1, "diagnostic"))) ||
         (word_is(s, c0, c1, "clang") &&
          (word_is(s, d0, d1, "loop") || word_is(s, d0, d1, "diagnostic")));
}

/* Numbers in directives, as both compilers read them.  Where NVRTC and
 * clang take a number the scan cannot vouch for, it is refused: the
 * compile on the user's machine must not fail on what the loader took. */

/* Why the pp-number [p, e) is no integer literal both compilers read in
 * an #if or a pragma (NULL: it is one, *v its value): decimal, 0x hex,
 * 0 octal or 0b binary digits, no digit separator, a value of at most 64
 * bits, no suffix but u, l, ll and their pairs (clang refuses lL, NVRTC
 * the C++23 z, and both a user-defined one). */
static const char *int_literal(const char *s, size_t p, size_t e, unsigned long long *v)
{
  static const char *const suffixes[] = {"", "u", "U", "l", "L", "ll", "LL", "ul", "uL", "Ul",
                                         "UL", "lu", "lU", "Lu", "LU", "ull", "uLL", "Ull", "ULL",
                                         "llu", "llU", "LLu", "LLU", NULL};
  unsigned base = 10;
  size_t q = p;
  if (e - p > 1 && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X')) base = 16, q += 2;
  else if (e - p > 1 && s[p] == '0' && (s[p + 1] == 'b' || s[p + 1] == 'B')) base = 2, q += 2;
  else if (s[p] == '0') base = 8;
  if (memchr(s + p, '\'', e - p)) return "a digit separator ('), which NVRTC does not take in every directive";
  if (memchr(s + p, '.', e - p) || (base != 16 && (memchr(s + p, 'e', e - p) || memchr(s + p, 'E', e - p))) ||
      (base == 16 && (memchr(s + p, 'p', e - p) || memchr(s + p, 'P', e - p))))
    return "a floating number is no integer";
  *v = 0;
  size_t d0 = q;
  for (; q < e; q++) {
    char ch = s[q];
    unsigned digit = is_digit(ch) ? (unsigned)(ch - '0')
                     : base == 16 && ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                     : base == 16 && ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 99;
    if (digit == 99) break;
    if (digit >= base) return base == 8 ? "a number with a leading 0 is octal, and 8 and 9 are no octal digits"
                                         : "a digit the base does not have";
    if (*v > (~0ULL - digit) / base) return "it is too large for any integer type (at most 64 bits)";
    *v = *v * base + digit;
  }
  if (q == d0 && base != 8) return "a 0x or 0b with no digits after it";
  for (int i = 0; suffixes[i]; i++)
    if (e - q == strlen(suffixes[i]) && memcmp(s + q, suffixes[i], e - q) == 0) return NULL;
  return "a suffix other than u, l, ll or their pairs (ul, ull, lu, llu)";
}

/* The end of the blanks and comments after p on the directive's line. */
static size_t line_space(const char *s, size_t n, size_t p)
{
  while (p < n && s[p] != '\n') {
    tok k;
    size_t q = token(s, n, p, &k);
    if (k != T_SPACE && k != T_COMMENT) break;
    p = q;
  }
  return p;
}

/* A #line (or the GNU form "# N") whose number starts at q: the number
 * is decimal digits 1 to 2147483647 with no leading 0, written out (the
 * scan cannot read a macro's value), then at most a plain "file name".
 * NVRTC refuses 0, 4294967296 and up, 0x10, 1'0, 10u and two strings;
 * clang takes 08 and 010 as decimal (with a warning), 1'0, and a macro. */
static int line_directive(tcheck *c, size_t p, size_t q, size_t *end)
{
  const char *s = c->t->s;
  size_t n = c->t->n, e = q;
  tok k = T_END;
  if (q < n && s[q] != '\n') e = token(s, n, q, &k);
  unsigned long long v = 0;
  for (size_t i = q; k == T_NUMBER && i < e && is_digit(s[i]) && v <= 2147483647ULL; i++)
    v = v * 10 + (unsigned)(s[i] - '0');
  int ok = k == T_NUMBER && s[q] != '0' && strspn(s + q, "0123456789") == e - q && v <= 2147483647ULL;
  size_t f = ok ? line_space(s, n, e) : e, fe = f;
  if (ok && f < n && s[f] == '"') {
    fe = token(s, n, f, &k);
    ok = quoted_closed(s, f, fe);
    fe = line_space(s, n, fe);
  }
  if (!ok || (fe < n && s[fe] != '\n')) {
    size_t len = strcspn(s + p, "\n");
    return tfail(c, p, "'%.*s%s' in the %s: #line takes a line number of decimal digits from 1 to "
                 "2147483647 with no leading 0 (no macro, sign, suffix or digit separator), then at "
                 "most a \"file name\"; NVRTC and clang read other forms differently or not at all",
                 (int)(len > 40 ? 40 : len), s + p, len > 40 ? "..." : "", c->where);
  }
  *end = fe;
  return 0;
}

static int directive_rules(tcheck *c, size_t p, size_t a, size_t b, size_t *e)
{
  const char *s = c->t->s, *w = c->where;
  size_t n = c->t->n;
  size_t c0 = skip_space(s, n, b), c1 = c0;
  while (c1 < n && is_id(s[c1])) c1++;
  size_t d0 = c1, d1; /* the second word: on the directive's line */
  while (d0 < n && (s[d0] == ' ' || s[d0] == '\t')) d0++;
  for (d1 = d0; d1 < n && is_id(s[d1]);) d1++;
  if (word_is(s, a, b, "include") || word_is(s, a, b, "include_next") ||
      word_is(s, a, b, "import") || word_is(s, a, b, "embed") ||
      (word_is(s, a, b, "pragma") && word_is(s, c0, c1, "GCC") && word_is(s, d0, d1, "dependency")))
    return tfail(c, p, "#%.*s%s in the %s: the GPU compiler runs on the user's machine at "
                 "start-up, and a workload may not make it read files there; write the code in "
                 "the %s", (int)(b - a), s + a, word_is(s, a, b, "pragma") ? " GCC dependency" : "",
                 w, w);
  if (word_is(s, a, b, "pragma") && (word_is(s, c0, c1, "push_macro") || word_is(s, c0, c1, "pop_macro")))
    return tfail(c, p, "#pragma %.*s in the %s: a %s's macros are its own (gpugen #undefs what it "
                 "#defines after it), and these pragmas could bring back or keep macros behind "
                 "that; #define and #undef are allowed", (int)(c1 - c0), s + c0, w, w);
  if (word_is(s, a, b, "pragma") && c1 > c0 && !pragma_allowed(s, c0, c1, d0, d1))
    return tfail(c, p, "#pragma %.*s in the %s: a workload's pragmas are unroll, nounroll, GCC "
                 "unroll, clang loop, the diagnostics ones (nv_diag_suppress, nv_diag_default, "
                 "nv_diag_warning, nv_diagnostic, diag_suppress, diag_default, GCC diagnostic, "
                 "clang diagnostic); others reach into the compilers: clang's read files or stop "
                 "the process", (int)((d1 > d0 ? d1 : c1) - c0), s + c0, w);
  if (word_is(s, a, b, "line")) return line_directive(c, p, line_space(s, n, b), e);
  if (b > a && is_digit(s[a])) return line_directive(c, p, a, e); /* # 12 "file" */
  int def = word_is(s, a, b, "define");
  /* numbers the compilers evaluate here: an #if's, an unroll count */
  int cond = word_is(s, a, b, "if") || word_is(s, a, b, "elif");
  int unroll = word_is(s, a, b, "pragma") &&
               (word_is(s, c0, c1, "unroll") || (word_is(s, c0, c1, "GCC") && word_is(s, d0, d1, "unroll")) ||
                (word_is(s, c0, c1, "clang") && word_is(s, d0, d1, "loop")));
  size_t shown = word_is(s, c0, c1, "unroll") ? c1 : d1; /* the pragma's words, for messages */
  if ((def || word_is(s, a, b, "undef")) && c1 - c0 >= 3 && (s[c0] == 'g' || s[c0] == 'G') &&
      (s[c0 + 1] == 'g' || s[c0 + 1] == 'G') && s[c0 + 2] == '_')
    return tfail(c, p, "#%.*s %.*s in the %s: names beginning gg_ or GG_ are gpugen's, and its "
                 "code shares the translation unit with the %s; name the macro otherwise",
                 (int)(b - a), s + a, (int)(c1 - c0), s + c0, w, w);
  if (group_directive(c, p, a, b, e)) return 1;
  if (*e > b) return 0; /* an #if 0 group was skipped */
  /* the rest of the line: no banned name, and a #define's
     replacement closes its own brackets (else a macro could carry a body
     out of its lambda) */
  char stack[64];
  int depth = 0;
  size_t q = b;
  while (q < n && s[q] != '\n') {
    tok k;
    size_t qe = token(s, n, q, &k), bw;
    if (k == T_IDENT && banned_name(c, q, qe)) return 1;
    unsigned long long v;
    const char *why = (cond || unroll) && k == T_NUMBER ? int_literal(s, q, qe, &v) : NULL;
    if (!why && unroll && k == T_NUMBER && (v < 1 || v > 2147483647ULL))
      why = "clang takes an unroll count from 1 to 2147483647";
    if (unroll && k == T_PUNCT && !strchr("(),", s[q]))
      return tfail(c, q, "'%c' in #pragma %.*s in the %s: an unroll count is one integer from 1 to "
                   "2147483647 or one name (a macro or constant, whose value the compiler checks), "
                   "since clang refuses 0, negative and larger counts", s[q], (int)(shown - c0), s + c0, w);
    if (why)
      return tfail(c, q, "the number %.*s in #%s%.*s in the %s: %s; write a decimal, 0x hex, 0 octal "
                   "or 0b binary integer%s", (int)(qe - q <= 24 ? qe - q : 24), s + q,
                   unroll ? "pragma " : "", (int)(unroll ? shown - c0 : b - a), unroll ? s + c0 : s + a,
                   w, why, unroll ? " from 1 to 2147483647" : " of at most 64 bits, suffixed u, l, ll or none");
    if (k == T_PUNCT && paste_at(s, n, q))
      return tfail(c, q, "token pasting (%.*s) in the %s: pasted halves could spell a name these "
                   "rules refuse (_Pragma, __has_include) where no check sees it; write the whole "
                   "name", (int)paste_at(s, n, q), s + q, w);
    if (k == T_PUNCT && s[q] == '\\' && q + 1 < n && (s[q + 1] == 'u' || s[q + 1] == 'U'))
      return tfail(c, q, "a universal character name (\\%c...) outside a literal in the %s: write "
                   "the character itself", s[q + 1], w);
    char br = def && k == T_PUNCT ? bracket_at(s, n, q, &bw) : 0;
    if (br && strchr("([{", br)) {
      if (depth == (int)sizeof stack)
        return tfail(c, q, "a #define in the %s nests brackets more than %d deep", w, (int)sizeof stack);
      stack[depth++] = br, qe = q + bw;
    } else if (br) {
      if (depth == 0 || closer_of(stack[depth - 1]) != br)
        return tfail(c, q, "a #define in the %s whose replacement closes a '%c' it did not open: "
                     "a macro closes the brackets it opens", w, br);
      depth--, qe = q + bw;
    }
    q = qe;
  }
  if (depth > 0)
    return tfail(c, q, "a #define in the %s whose replacement leaves a '%c' open: a macro closes "
                 "the brackets it opens", w, stack[depth - 1]);
  *e = q;
  return 0;
}

/* Before the splices are taken out: what compilers read differently. */
static int raw_rules(const char *text, const char *where, size_t *at, char *msg, size_t size)
{
  for (size_t i = 0; text[i]; i++) {
    if ((unsigned char)text[i] >= 0xFE) {
      *at = i;
      snprintf(msg, size, "a byte 0x%02X in the %s: no UTF-8 text holds it, and NVRTC reads 0xFF "
               "as the end of the source; in a literal write it as an escape (\\x%02x)",
               (unsigned char)text[i], where, (unsigned char)text[i]);
      return 1;
    }
    if (text[i] == '\r' && text[i + 1] != '\n') {
      *at = i;
      snprintf(msg, size, "a carriage return that is not followed by a newline in the %s: clang "
               "reads it as a line end and NVRTC does not; end lines with \\n", where);
      return 1;
    }
    if (text[i] == '\\') {
      size_t j = i + 1;
      while (text[j] == ' ' || text[j] == '\t' || text[j] == '\f' || text[j] == '\v') j++;
      if (j > i + 1 && (text[j] == '\n' || text[j] == '\r')) {
        *at = i;
        snprintf(msg, size, "a backslash with blanks after it at the end of a line in the %s: "
                 "clang joins the lines and NVRTC does not; remove the blanks", where);
        return 1;
      }
    }
  }
  return 0;
}

int ggi_text_check(const char *text, int base_line, const char *where, unsigned targets,
                   int *line, char *msg, size_t size)
{
  size_t at = 0;
  if (raw_rules(text, where, &at, msg, size)) {
    *line = base_line;
    for (size_t i = 0; i < at; i++) *line += text[i] == '\n';
    return -1;
  }
  spliced t;
  tcheck c = {.t = &t, .where = where, .msg = msg, .size = size, .targets = targets};
  int bad = 0, line_start = 1;
  if (splice_open(&t, text) || !(c.open = malloc(t.n + 1)) ||
      !(c.open_at = malloc((t.n + 1) * sizeof *c.open_at)) ||
      !(c.grp_depth = malloc((t.n + 1) * sizeof *c.grp_depth)) ||
      !(c.grp_end = malloc((t.n + 1) * sizeof *c.grp_end)) || !(c.grp_skip = malloc(t.n + 1)) ||
      !(c.grp_at = malloc((t.n + 1) * sizeof *c.grp_at)))
    goto done; /* out of memory: the compiler still reports */
  bad = compilers_agree(&c);
  for (size_t p = 0; !bad && p < t.n;) {
    tok k;
    size_t e = token(t.s, t.n, p, &k), a, b;
    if (k == T_SPACE) {
      for (size_t i = p; i < e; i++) line_start |= t.s[i] == '\n';
    } else if (k == T_COMMENT) {
      if (t.s[p + 1] == '*' && (e - p < 4 || t.s[e - 2] != '*' || t.s[e - 1] != '/'))
        bad = tfail(&c, p, "a /* comment that does not end in the %s: close it with */", where);
    } else if (line_start && directive_name(t.s, t.n, p, &a, &b)) {
      e = b;
      bad = directive_rules(&c, p, a, b, &e);
      /* after a skipped group e is the '#' of the directive that ends it */
      line_start = e < t.n && t.s[e] != '\n';
    } else {
      line_start = 0;
      bad = code_token(&c, p, &e, k);
    }
    p = e;
  }
  if (!bad && c.ngrp > 0)
    bad = tfail(&c, c.grp_at[c.ngrp - 1], "an #if in the %s without its #endif: every #if, #ifdef and #ifndef ends "
                "in the text that opens it", where);
  if (!bad && c.nopen > 0)
    bad = tfail(&c, c.open_at[c.nopen - 1], "a '%c' in the %s that does not close in it: every "
                "(, [ and { of the %s closes in it, since the text sits inside code of gpugen's own",
                c.open[c.nopen - 1], where, where);
  if (bad) *line = splice_line(&t, base_line, c.at);
done:
  free(c.open), free(c.open_at), free(c.grp_depth), free(c.grp_end), free(c.grp_skip), free(c.grp_at);
  splice_free(&t);
  return bad ? -1 : 0;
}

int ggi_body_check(const ggi_kernel *kn, int *line, char *msg, size_t size)
{
  int nv = kn->nparams + kn->nscratch, rc = 0;
  view *v = calloc((size_t)(nv ? nv : 1), sizeof *v);
  if (!v) return 0; /* the check is a courtesy: the compiler still reports */
  scan sc = {.v = v, .line = line, .msg = msg, .size = size};
  for (int i = 0; i < kn->nparams; i++)
    if (kn->params[i].kind == GG_PARAM_VIEW && kn->params[i].rank >= 1)
      v[sc.nv].read_only = kn->params[i].access == GG_ACCESS_IN, v[sc.nv++].p = &kn->params[i];
  for (int i = 0; i < kn->nscratch; i++) /* scratch: shared memory the team writes */
    if (kn->scratch[i].kind == GG_PARAM_VIEW && kn->scratch[i].rank >= 1) v[sc.nv++].p = &kn->scratch[i];
  if (kn->body) rc = ggi_text_check(kn->body, kn->body_line, "body", kn->targets, line, msg, size);
  for (int i = 0; rc == 0 && i < kn->nvalues; i++)
    if (kn->values[i]) rc = ggi_text_check(kn->values[i], kn->value_line, "value", kn->targets, line, msg,
                                              size);
  if (rc == 0 && kn->body) rc = scan_text(&sc, kn->body, kn->body_line, "body");
  for (int i = 0; rc == 0 && i < kn->nvalues; i++)
    if (kn->values[i]) rc = scan_text(&sc, kn->values[i], kn->value_line, "value");
  free(v);
  return rc;
}

/* ---- a view touched only at the thread's own index ---- */

static int same_word(const char *s, size_t a, size_t b, const char *w)
{
  return w && b - a == strlen(w) && memcmp(s + a, w, b - a) == 0;
}

/* The next significant token at or after p: its start (n at the end)
 * and *e its end. */
static size_t next_tok(const char *s, size_t n, size_t p, size_t *e, tok *k)
{
  p = skip_space(s, n, p);
  *e = p < n ? token(s, n, p, k) : n;
  if (p >= n) *k = T_END;
  return p;
}

/* The call whose '(' is at p: 1 when its arguments are exactly the
 * identifiers idx[0..rank-1], with *end just past its ')'. */
static int own_call(const char *s, size_t n, size_t p, const char *const *idx, int rank,
                    size_t *end)
{
  size_t e;
  tok k;
  for (int d = 0; d < rank; d++) {
    p = next_tok(s, n, p + 1, &e, &k); /* past '(' or ',' */
    if (k != T_IDENT || !same_word(s, p, e, idx[d])) return 0;
    p = next_tok(s, n, e, &e, &k);
    if (k != T_PUNCT || s[p] != (d == rank - 1 ? ')' : ',')) return 0;
  }
  *end = e;
  return 1;
}

/* The call whose '(' follows s[..e): 1 when its first argument is exactly
 * the identifier `first` (then ',' or ')'), with *end just past it. */
static int call_from(const char *s, size_t n, size_t e, const char *first, size_t *end)
{
  size_t p, pe;
  tok k;
  p = next_tok(s, n, e, &pe, &k);
  if (k != T_PUNCT || s[p] != '(') return 0;
  p = next_tok(s, n, pe, &pe, &k);
  if (k != T_IDENT || !same_word(s, p, pe, first)) return 0;
  *end = pe;
  p = next_tok(s, n, pe, &pe, &k);
  return k == T_PUNCT && (s[p] == ',' || s[p] == ')');
}

/* Text that can rename an index, take an address or hide a use from the
 * token scan below: digraphs and trigraphs (%:define, <: for [), decltype
 * declarations, parameter packs, std::addressof, line splices (a
 * backslash before a newline joins S and p into Sp), _Pragma (a directive
 * without '#': pop_macro("x") would give a view back its memory macro).
 * Found anywhere, even in a comment, the proof gives up: a barrier too
 * many costs time, one too few a race. */
static int opaque_text(const char *s)
{
  static const char *const bad[] = {"%:", "<:", ":>", "<%", "%>", "??", "decltype", "...",
                                    "addressof", "_Pragma", "\\\n", "\\\r"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (strstr(s, bad[i])) return 1;
  return 0;
}

/* The next identifier at or after p, *e its end: n at the end of the
 * text, SIZE_MAX when a '#' (a directive), '&' (an address or reference)
 * or '[' (a lambda, capture or structured binding) comes first - text
 * the proofs below give up on. */
static size_t next_ident(const char *s, size_t n, size_t p, size_t *e)
{
  tok k;
  for (; (p = next_tok(s, n, p, e, &k)) < n; p = *e) {
    if (k == T_PUNCT && (s[p] == '#' || s[p] == '&' || s[p] == '[')) return SIZE_MAX;
    if (k == T_IDENT) return p;
  }
  return n;
}

/* The kernel's views by name: the scans below meet every identifier of
 * a body, and a walk over up to 1000 parameters for each made a kernel
 * of 1000 views take seconds (the scans run once per view: the cube of
 * the size).  An open-addressing table of the views; NULL slots empty. */
typedef struct view_set {
  const ggi_param **slot;
  size_t mask;
} view_set;

static size_t name_hash(const char *s, size_t n)
{
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return (size_t)h;
}

/* 0, or -1 when out of memory (the caller then proves nothing). */
static int view_set_open(view_set *vs, const ggi_kernel *kn)
{
  size_t cap = 16;
  while (cap < 2 * (size_t)kn->nparams) cap *= 2;
  vs->mask = cap - 1;
  if (!(vs->slot = calloc(cap, sizeof *vs->slot))) return -1;
  for (int i = 0; i < kn->nparams; i++) {
    const ggi_param *pp = &kn->params[i];
    if (pp->rank < 1 || !pp->name) continue;
    size_t h = name_hash(pp->name, strlen(pp->name)) & vs->mask;
    while (vs->slot[h]) h = (h + 1) & vs->mask;
    vs->slot[h] = pp;
  }
  return 0;
}

static void view_set_free(view_set *vs) { free(vs->slot); }

/* The view named s[p..e) (an identifier), or NULL. */
static const ggi_param *view_at(const view_set *vs, const char *s, size_t p, size_t e)
{
  for (size_t h = name_hash(s + p, e - p) & vs->mask; vs->slot[h]; h = (h + 1) & vs->mask)
    if (same_word(s, p, e, vs->slot[h]->name)) return vs->slot[h];
  return NULL;
}

/* The call of a halo view whose '(' is at p: just past its matching ')'
 * (n when unbalanced); 0 when a '(' inside it opens a statement
 * expression "({", the one way to declare a name inside an argument. */
static size_t halo_call_end(const char *s, size_t n, size_t p)
{
  int depth = 0;
  size_t e;
  tok k;
  for (; (p = next_tok(s, n, p, &e, &k)) < n; p = e) {
    if (k != T_PUNCT) continue;
    if (s[p] == '(') {
      size_t q, qe;
      tok qk;
      q = next_tok(s, n, e, &qe, &qk);
      if (qk == T_PUNCT && s[q] == '{') return 0;
      depth++;
    } else if (s[p] == ')' && --depth == 0) {
      return e;
    }
  }
  return n;
}

/* The first call name(...) in text s (outside comments and literals)
 * whose argument count - the commas outside nested brackets - is not
 * want: that count, with *lines the newlines before the call; -1 when
 * every call has want arguments. */
int ggi_call_arity(const char *s, const char *name, int want, int *lines)
{
  size_t n = s ? strlen(s) : 0, p, e;
  tok k;
  for (p = 0; (p = next_tok(s, n, p, &e, &k)) < n; p = e) {
    if (k != T_IDENT || !same_word(s, p, e, name)) continue;
    size_t q = next_tok(s, n, e, &e, &k);
    if (k != T_PUNCT || s[q] != '(') continue;
    int depth = 1, args = 0, any = 0;
    while (depth > 0 && (q = next_tok(s, n, e, &e, &k)) < n) {
      const char c = s[q];
      if (k == T_PUNCT && (c == '(' || c == '[' || c == '{')) depth++;
      else if (k == T_PUNCT && (c == ')' || c == ']' || c == '}')) depth--;
      else if (k == T_PUNCT && c == ',' && depth == 1) args++;
      if (depth > 0) any = 1;
    }
    args += any;
    if (args != want) {
      *lines = 0;
      for (size_t i = 0; i < p; i++) *lines += s[i] == '\n';
      return args;
    }
  }
  return -1;
}

/* Whether identifier `name` appears in text s outside comments and
 * literals; with conservative, also 1 when s has a directive or
 * opaque_text's spellings (a macro could paste the name together), so
 * that 0 is a proof that s never names it. */
static int names(const char *s, const char *name, int conservative)
{
  if (!s) return 0;
  if (conservative && opaque_text(s)) return 1;
  size_t n = strlen(s), p, e;
  tok k;
  for (p = 0; (p = next_tok(s, n, p, &e, &k)) < n; p = e) {
    if (conservative && k == T_PUNCT && s[p] == '#') return 1;
    if (k == T_IDENT && same_word(s, p, e, name)) return 1;
  }
  return 0;
}

int ggi_text_names(const char *s, const char *name) { return names(s, name, 0); }
int ggi_text_may_name(const char *s, const char *name) { return names(s, name, 1); }

/* 1 when every use of `view` in the body is V(i, j, ...) with the range's
 * index names in order, and the index names appear nowhere else: only as
 * the whole argument list of some view's call, or inside the arguments of
 * a call of a view declared with a halo (H(i - 1): its macro checks the
 * index at run time).  So no statement can
 * rename, shift or redeclare an index (i = i + 1, long long a = ..., i = a,
 * [u, i], auto... i: each puts an index outside such a call) and the body
 * holds no '&' (no address, no reference bound to V(i), no rvalue
 * reference), no '[' (no lambda, capture or structured binding), no
 * directive, no name of gpugen's own (gg_...) and none of opaque_text's
 * spellings.  Conservative on
 * purpose: a stage that fails keeps its grid barrier. */
static int own_index_marks(const ggi_kernel *kn, const view_set *vs, const char *s,
                           char *otherwise);
/* Each view j of the kernel: own[j] = 1 when text s touches it only as
 * V(i, ...), by the rules above; one scan of s for every view. */
static void own_index_text(const ggi_kernel *kn, const char *s, char *own)
{
  memset(own, 0, (size_t)kn->nparams);
  if (!s || kn->rank < 1 || opaque_text(s)) return;
  for (int d = 0; d < kn->rank; d++)
    if (!kn->index[d]) return; /* unnamed: the body cannot say V(i) */
  view_set vs;
  char *otherwise = calloc((size_t)kn->nparams + 1, 1);
  if (!otherwise || view_set_open(&vs, kn)) {
    free(otherwise);
    return;
  }
  if (own_index_marks(kn, &vs, s, otherwise))
    for (int j = 0; j < kn->nparams; j++)
      own[j] = kn->params[j].rank == kn->rank && !otherwise[j];
  view_set_free(&vs);
  free(otherwise);
}
/* The scan: 0 when s breaks a rule every view shares; else 1, with
 * otherwise[j] set for each view j used other than as V(i, ...).  (A view
 * used otherwise is then scanned on as any other view: the views judged
 * together give what each judged alone would.) */
static int own_index_marks(const ggi_kernel *kn, const view_set *vs, const char *s,
                           char *otherwise)
{
  size_t n = strlen(s), p, e, in_halo = 0; /* index names allowed before in_halo */
  for (p = 0; (p = next_ident(s, n, p, &e)) < n; p = e) {
    /* gpugen's own names (gg_s, the staged registers; gg_args_<k>, a way
       to the views' pointers; gg_lin): the body could reach an element
       past its view's macro */
    if (e - p > 3 && strncmp(s + p, "gg_", 3) == 0) return 0;
    const ggi_param *w = view_at(vs, s, p, e);
    if (w) {
      size_t q, qe, end;
      tok qk;
      q = next_tok(s, n, e, &qe, &qk);
      if (qk == T_PUNCT && s[q] == '(' &&
          own_call(s, n, q, (const char *const *)kn->index, kn->rank, &end)) {
        e = end; /* V(i, ...): the index names in it are this thread's */
        continue;
      }
      otherwise[w - kn->params] = 1; /* this view, used otherwise */
      if (qk == T_PUNCT && s[q] == '(' && w->halo > 0) {
        /* H(i - 1) of a view with a halo: the index in an argument its
           macro checks; i is const and nothing in the argument can
           redeclare it (no '&', no '[', no "({"), so it stays the own
           index.  The argument is scanned on like the rest of the body:
           a view inside it is judged by the same rules. */
        if (q >= in_halo) { /* a call inside another was scanned with it */
          if ((end = halo_call_end(s, n, q)) == 0) return 0;
          in_halo = end;
        }
        e = qe;
      }
      continue;
    }
    if (p < in_halo) continue; /* inside a halo view's call */
    for (int d = 0; d < kn->rank; d++)
      if (same_word(s, p, e, kn->index[d])) return 0; /* an index outside V(i, ...) */
  }
  return p == n; /* not SIZE_MAX: no text the proof gives up on */
}

/* A reduce's value expressions are what its body is to a for kernel: the
 * text evaluated at each index. */
static void own_index_all(const ggi_kernel *kn, char *own)
{
  if (kn->pattern != GG_PATTERN_REDUCE) {
    own_index_text(kn, kn->body, own);
    return;
  }
  memset(own, kn->nvalues > 0, (size_t)kn->nparams);
  char *one = malloc((size_t)kn->nparams + 1);
  if (!one) {
    memset(own, 0, (size_t)kn->nparams);
    return;
  }
  for (int v = 0; v < kn->nvalues; v++) {
    own_index_text(kn, kn->values[v], one);
    for (int j = 0; j < kn->nparams; j++) own[j] &= one[j];
  }
  free(one);
}

const char *ggi_body_own_index_table(const ggi_kernel *kn, ggi_arena *a)
{
  char *own = kn->nparams > 0 ? ggi_alloc(a, (size_t)kn->nparams) : NULL;
  if (own) own_index_all(kn, own);
  return own;
}

int ggi_body_own_index(const ggi_kernel *kn, const ggi_param *view)
{
  if (!view || view < kn->params || view >= kn->params + kn->nparams) return 0;
  if (kn->own_index) return kn->own_index[view - kn->params];
  char *own = malloc((size_t)kn->nparams);
  if (!own) return 0;
  own_index_all(kn, own);
  int r = own[view - kn->params];
  free(own);
  return r;
}

/* 1 when every use of `view` in a team body is V(league_rank, ...): the
 * team's own league item first (any indices after it), and league_rank
 * appears nowhere else but as the first index of some view's call - not
 * assigned, shifted, copied or captured.  The same conservative rules as
 * ggi_body_own_index otherwise: no '&', no '[', no directive, none of
 * opaque_text's spellings.  The indices after the item are trusted to
 * stay inside the view's extents (out of them is out of bounds anyway). */
int ggi_body_own_item(const ggi_kernel *kn, const ggi_param *view)
{
  static const char *const item = "league_rank";
  const char *s = kn->body;
  if (!s || !view || view->rank < 1 || !ggi_pattern_is(kn, GGI_PAT_TEAMS) || opaque_text(s)) return 0;
  view_set vs;
  if (view_set_open(&vs, kn)) return 0;
  size_t n = strlen(s), p, e;
  int own = 1;
  for (p = 0; own && (p = next_ident(s, n, p, &e)) < n; p = e) {
    if (view_at(&vs, s, p, e)) {
      size_t end;
      if (call_from(s, n, e, item, &end)) {
        e = end; /* W(league_rank, ...: past the item, scan on */
        continue;
      }
      own = !same_word(s, p, e, view->name); /* the view, used otherwise */
      continue;
    }
    own = !same_word(s, p, e, item); /* league_rank outside a view's first index */
  }
  view_set_free(&vs);
  return own && p == n;
}

/* For a view that passed ggi_body_own_index: 1 when the body may read
 * it - some use V(i, ...) is not the left side of a plain assignment
 * (V(i) = ..., not V(i) == or V(i) += ...); 0 when the body only
 * assigns it or never names it. */
int ggi_body_reads_own(const ggi_kernel *kn, const ggi_param *view)
{
  const char *s = kn->body;
  if (!s || kn->rank < 1) return 0;
  size_t n = strlen(s), p, e, q, qe, end;
  tok k;
  for (p = 0; (p = next_ident(s, n, p, &e)) < n; p = e) {
    if (!same_word(s, p, e, view->name)) continue;
    q = next_tok(s, n, e, &qe, &k);
    if (k != T_PUNCT || s[q] != '(' ||
        !own_call(s, n, q, (const char *const *)kn->index, kn->rank, &end))
      return 1; /* not V(i, ...): not what the proof allowed; say it reads */
    q = next_tok(s, n, end, &qe, &k);
    if (k != T_PUNCT || s[q] != '=') return 1;
    q = next_tok(s, n, qe, &qe, &k);
    if (k == T_PUNCT && s[q] == '=') return 1; /* V(i) == ... */
    e = end;
  }
  return 0;
}

/* 1 when every use of `view` in a for body is a call V(...) - the view's
 * macro, which checks a declared halo at run time (gg_halo_index) - and
 * the check cannot be dodged: no '&' (no pointer to an element, which
 * could be offset), no '[' (no lambda or capture), no directive, none of
 * opaque_text's spellings, and no name of gpugen's own (gg_...: gg_lin,
 * the own index the macro compares with, or a gg_halo_index the body
 * declares to replace the check).  The indices themselves may be any
 * expression. */
int ggi_body_calls_only(const ggi_kernel *kn, const ggi_param *view)
{
  const char *s = kn->body;
  if (!s || !view || view->rank < 1 || !ggi_pattern_is(kn, GGI_PAT_HALO) || opaque_text(s)) return 0;
  size_t n = strlen(s), p, e;
  for (p = 0; (p = next_ident(s, n, p, &e)) < n; p = e) {
    /* gpugen's own names: gg_lin (the own index the macro compares with),
       gg_halo_index (the check; a body could declare its own) */
    if (e - p > 3 && strncmp(s + p, "gg_", 3) == 0) return 0;
    if (!same_word(s, p, e, view->name)) continue;
    size_t q, qe;
    tok qk;
    q = next_tok(s, n, e, &qe, &qk);
    if (qk != T_PUNCT || s[q] != '(') return 0; /* the bare pointer */
  }
  return p == n;
}
