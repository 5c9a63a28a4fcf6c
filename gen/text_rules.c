/* text_rules.c - see text_rules.h. */
#include "text_rules.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "lex.h"

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
  *a = *b = ggi_skip_space(s, n, p);
  while (*b < n && ggi_is_id(s[*b])) ++*b;
  return 1;
}

/* Calls each(ctx, name, len) for every name the text #defines, in order,
 * repeats included. */
static void each_macro(const spliced *t, void (*each)(void *, const char *, size_t), void *ctx)
{
  int line_start = 1;
  for (size_t p = 0; p < t->n;) {
    ggi_tok k;
    size_t e = ggi_token(t->s, t->n, p, &k), a, b;
    if (k == GGI_T_SPACE || k == GGI_T_COMMENT) {
      for (size_t i = p; i < e; i++) line_start |= t->s[i] == '\n';
    } else {
      if (line_start && directive_name(t->s, t->n, p, &a, &b) && ggi_same_word(t->s, a, b, "define")) {
        size_t m = ggi_skip_space(t->s, t->n, b), me = m;
        while (me < t->n && ggi_is_id(t->s[me])) me++;
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
 *   - a directive other than #define, #undef, #if, #ifdef, #ifndef,
 *     #elif, #else, #endif, #line and #pragma (and the null directive):
 *     clang ends an #if group at #elifdef and #elifndef, NVRTC does not
 *     know them, and the check could not follow what either compiles;
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
  ggi_diag *d;
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
  ggi_vfail(c->d, fmt, ap);
  va_end(ap);
  c->at = at;
  return 1;
}

/* Names that probe files or hide a directive, wherever they stand. */
static int banned_name(tcheck *c, size_t p, size_t e)
{
  const char *s = c->t->s;
  static const char *const probes[] = {"__has_include", "__has_include_next", "__has_embed", NULL};
  if (ggi_same_word(s, p, e, "_Pragma"))
    return tfail(c, p, "_Pragma in the %s: write a #pragma on a line of its own (push_macro and "
                 "pop_macro are not allowed)", c->where);
  if ((c->targets & GGI_TARGET_HIP) &&
      (ggi_same_word(s, p, e, "asm") || ggi_same_word(s, p, e, "__asm") || ggi_same_word(s, p, e, "__asm__")))
    return tfail(c, p, "%.*s in the %s of a kernel that targets hip: AMD's assembler reads files "
                 "(.incbin, .include), and an asm string can be put together from pieces no "
                 "check sees; write it in C++ (intrinsics are fine), or give the module "
                 "targets = { \"cuda\" } for PTX asm", (int)(e - p), s + p, c->where);
  for (int i = 0; probes[i]; i++)
    if (ggi_same_word(s, p, e, probes[i]))
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
    ggi_tok k;
    size_t e = ggi_token(s, n, p, &k);
    int nl = memchr(s + p, '\n', e - p) != NULL;
    if (k == GGI_T_COMMENT) after_lines |= nl && s[p + 1] == '*';
    else if (k == GGI_T_SPACE) after_lines &= !nl;
    else {
      if (after_lines && (s[p] == '#' || (s[p] == '%' && p + 1 < n && s[p + 1] == ':')))
        return tfail(c, p, "a '#' after a block comment that spans lines, on the line where the "
                     "comment ends, in the %s: NVRTC reads a directive there and clang does not; "
                     "start the directive on a line of its own", c->where);
      /* here, not only in live code: in an #if 0 group too, compilers
         read a \u name into a number (1\u00e9'x' is one pp-number and a
         ' that starts a literal), where the scan ends the number */
      if (k == GGI_T_PUNCT && s[p] == '\\' && p + 1 < n && (s[p + 1] == 'u' || s[p + 1] == 'U'))
        return tfail(c, p, "a universal character name (\\%c...) outside a literal in the %s: "
                     "write the character itself", s[p + 1], c->where);
      if (k == GGI_T_NUMBER)
        for (size_t i = p; i < e; i++)
          if (s[i] == '$' || (unsigned char)s[i] >= 0x80)
            return tfail(c, i, "a number run into '$' or a non-ASCII character in the %s: "
                         "compilers end the number there, so a ' after it starts a character "
                         "literal for them and not for a reader; put a space or an operator "
                         "between them", c->where);
      if (k == GGI_T_LITERAL && ggi_is_id0(s[p])) {
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
static int code_token(tcheck *c, size_t p, size_t *e, ggi_tok k)
{
  const char *s = c->t->s;
  size_t n = c->t->n, w;
  char ch = s[p];
  if (k == GGI_T_IDENT) return banned_name(c, p, *e);
  if (k == GGI_T_LITERAL) {
    int raw = ggi_is_id0(ch);
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
 * ends it (its '#'), or at an #elifdef or #elifndef, where clang would
 * end it; nested groups skipped whole. */
static size_t skip_group(const tcheck *c, size_t e)
{
  const char *s = c->t->s;
  size_t n = c->t->n, a, b;
  int nest = 0, line_start = 0;
  for (size_t p = e; p < n;) {
    ggi_tok k;
    size_t q = ggi_token(s, n, p, &k);
    if (k == GGI_T_SPACE || k == GGI_T_COMMENT) {
      for (size_t i = p; i < q; i++) line_start |= s[i] == '\n';
    } else {
      if (line_start && directive_name(s, n, p, &a, &b)) {
        if (ggi_same_word(s, a, b, "if") || ggi_same_word(s, a, b, "ifdef") || ggi_same_word(s, a, b, "ifndef")) nest++;
        else if (ggi_same_word(s, a, b, "endif") && nest > 0) nest--;
        else if (nest == 0 && (ggi_same_word(s, a, b, "endif") || ggi_same_word(s, a, b, "else") ||
                               ggi_same_word(s, a, b, "elif") || ggi_same_word(s, a, b, "elifdef") ||
                               ggi_same_word(s, a, b, "elifndef")))
          return p; /* #elifdef, #elifndef: clang ends the group there; refused (directive_known) */
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
  while (ze < n && ggi_is_id(s[ze])) ze++;
  size_t eol = ze; /* past blanks and comments to the line's end */
  while (eol < n && s[eol] != '\n') {
    ggi_tok k;
    size_t q = ggi_token(s, n, eol, &k);
    if ((k != GGI_T_SPACE && k != GGI_T_COMMENT) || memchr(s + eol, '\n', q - eol)) break;
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
  if (ggi_same_word(s, a, b, "if") || ggi_same_word(s, a, b, "ifdef") || ggi_same_word(s, a, b, "ifndef")) {
    int g = c->ngrp++;
    c->grp_depth[g] = c->nopen, c->grp_end[g] = -1, c->grp_at[g] = p;
    c->grp_skip[g] = ggi_same_word(s, a, b, "if") && arg_is_zero(c, b, &z);
    if (c->grp_skip[g]) *e = skip_group(c, z);
    return 0;
  }
  int end = ggi_same_word(s, a, b, "endif");
  if (!end && !ggi_same_word(s, a, b, "else") && !ggi_same_word(s, a, b, "elif")) return 0;
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
  c->grp_skip[g] = ggi_same_word(s, a, b, "elif") && arg_is_zero(c, b, &z);
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
    if (ggi_same_word(s, c0, c1, one[i])) return 1;
  return (ggi_same_word(s, c0, c1, "GCC") &&
          (ggi_same_word(s, d0, d1, "unroll") || ggi_same_word(s, d0, d1, "diagnostic"))) ||
         (ggi_same_word(s, c0, c1, "clang") &&
          (ggi_same_word(s, d0, d1, "loop") || ggi_same_word(s, d0, d1, "diagnostic")));
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
    unsigned digit = ggi_is_digit(ch) ? (unsigned)(ch - '0')
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
    ggi_tok k;
    size_t q = ggi_token(s, n, p, &k);
    if (k != GGI_T_SPACE && k != GGI_T_COMMENT) break;
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
  ggi_tok k = GGI_T_END;
  if (q < n && s[q] != '\n') e = ggi_token(s, n, q, &k);
  unsigned long long v = 0;
  for (size_t i = q; k == GGI_T_NUMBER && i < e && ggi_is_digit(s[i]) && v <= 2147483647ULL; i++)
    v = v * 10 + (unsigned)(s[i] - '0');
  int ok = k == GGI_T_NUMBER && s[q] != '0' && strspn(s + q, "0123456789") == e - q && v <= 2147483647ULL;
  size_t f = ok ? line_space(s, n, e) : e, fe = f;
  if (ok && f < n && s[f] == '"') {
    fe = ggi_token(s, n, f, &k);
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

/* The directives a workload's text may use, named [a, b) (a == b: the
 * null directive; a digit: # 12 "file").  The compilers know different sets:
 * clang takes #elifdef and #elifndef (C++23) in any mode and ends a
 * skipped #if group at them, NVRTC does not know them; #assert, #ident,
 * #sccs and the like are one compiler's.  A directive the check does not
 * know is one whose effect it cannot follow. */
static int directive_known(const char *s, size_t n, size_t a, size_t b)
{
  static const char *const known[] = {"define", "undef", "if",    "ifdef", "ifndef",
                                      "elif",   "else",  "endif", "line",  "pragma"};
  if (a == b) /* the null directive: nothing else on the line */
    return a == n || s[a] == '\n';
  if (ggi_is_digit(s[a])) /* # 12 "file" (line_directive) */
    return 1;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (ggi_same_word(s, a, b, known[i]))
      return 1;
  return 0;
}

static int directive_rules(tcheck *c, size_t p, size_t a, size_t b, size_t *e)
{
  const char *s = c->t->s, *w = c->where;
  size_t n = c->t->n;
  size_t c0 = ggi_skip_space(s, n, b), c1 = c0;
  while (c1 < n && ggi_is_id(s[c1])) c1++;
  size_t d0 = c1, d1; /* the second word: on the directive's line */
  while (d0 < n && (s[d0] == ' ' || s[d0] == '\t')) d0++;
  for (d1 = d0; d1 < n && ggi_is_id(s[d1]);) d1++;
  if (ggi_same_word(s, a, b, "include") || ggi_same_word(s, a, b, "include_next") ||
      ggi_same_word(s, a, b, "import") || ggi_same_word(s, a, b, "embed") ||
      (ggi_same_word(s, a, b, "pragma") && ggi_same_word(s, c0, c1, "GCC") && ggi_same_word(s, d0, d1, "dependency")))
    return tfail(c, p, "#%.*s%s in the %s: the GPU compiler runs on the user's machine at "
                 "start-up, and a workload may not make it read files there; write the code in "
                 "the %s", (int)(b - a), s + a, ggi_same_word(s, a, b, "pragma") ? " GCC dependency" : "",
                 w, w);
  if (!directive_known(s, n, a, b)) { /* the #include family has its own message, above */
    const size_t len = strcspn(s + p, "\n");
    return tfail(c, p, "'%.*s%s' in the %s: a workload's directives are #define, #undef, #if, "
                 "#ifdef, #ifndef, #elif, #else, #endif, #line and #pragma; NVRTC and clang "
                 "differ on others (clang ends an #if group at #elifdef and #elifndef, NVRTC does "
                 "not know them), so what is compiled could differ from what was checked",
                 (int)(len > 40 ? 40 : len), s + p, len > 40 ? "..." : "", w);
  }
  if (ggi_same_word(s, a, b, "pragma") && (ggi_same_word(s, c0, c1, "push_macro") || ggi_same_word(s, c0, c1, "pop_macro")))
    return tfail(c, p, "#pragma %.*s in the %s: a %s's macros are its own (gpugen #undefs what it "
                 "#defines after it), and these pragmas could bring back or keep macros behind "
                 "that; #define and #undef are allowed", (int)(c1 - c0), s + c0, w, w);
  if (ggi_same_word(s, a, b, "pragma") && c1 > c0 && !pragma_allowed(s, c0, c1, d0, d1))
    return tfail(c, p, "#pragma %.*s in the %s: a workload's pragmas are unroll, nounroll, GCC "
                 "unroll, clang loop, the diagnostics ones (nv_diag_suppress, nv_diag_default, "
                 "nv_diag_warning, nv_diagnostic, diag_suppress, diag_default, GCC diagnostic, "
                 "clang diagnostic); others reach into the compilers: clang's read files or stop "
                 "the process", (int)((d1 > d0 ? d1 : c1) - c0), s + c0, w);
  if (ggi_same_word(s, a, b, "line")) return line_directive(c, p, line_space(s, n, b), e);
  if (b > a && ggi_is_digit(s[a])) return line_directive(c, p, a, e); /* # 12 "file" */
  int def = ggi_same_word(s, a, b, "define");
  /* numbers the compilers evaluate here: an #if's, an unroll count */
  int cond = ggi_same_word(s, a, b, "if") || ggi_same_word(s, a, b, "elif");
  int unroll = ggi_same_word(s, a, b, "pragma") &&
               (ggi_same_word(s, c0, c1, "unroll") || (ggi_same_word(s, c0, c1, "GCC") && ggi_same_word(s, d0, d1, "unroll")) ||
                (ggi_same_word(s, c0, c1, "clang") && ggi_same_word(s, d0, d1, "loop")));
  size_t shown = ggi_same_word(s, c0, c1, "unroll") ? c1 : d1; /* the pragma's words, for messages */
  if ((def || ggi_same_word(s, a, b, "undef")) && c1 - c0 >= 3 && (s[c0] == 'g' || s[c0] == 'G') &&
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
    ggi_tok k;
    size_t qe = ggi_token(s, n, q, &k), bw;
    if (k == GGI_T_IDENT && banned_name(c, q, qe)) return 1;
    unsigned long long v;
    const char *why = (cond || unroll) && k == GGI_T_NUMBER ? int_literal(s, q, qe, &v) : NULL;
    if (!why && unroll && k == GGI_T_NUMBER && (v < 1 || v > 2147483647ULL))
      why = "clang takes an unroll count from 1 to 2147483647";
    if (unroll && k == GGI_T_PUNCT && !strchr("(),", s[q]))
      return tfail(c, q, "'%c' in #pragma %.*s in the %s: an unroll count is one integer from 1 to "
                   "2147483647 or one name (a macro or constant, whose value the compiler checks), "
                   "since clang refuses 0, negative and larger counts", s[q], (int)(shown - c0), s + c0, w);
    if (why)
      return tfail(c, q, "the number %.*s in #%s%.*s in the %s: %s; write a decimal, 0x hex, 0 octal "
                   "or 0b binary integer%s", (int)(qe - q <= 24 ? qe - q : 24), s + q,
                   unroll ? "pragma " : "", (int)(unroll ? shown - c0 : b - a), unroll ? s + c0 : s + a,
                   w, why, unroll ? " from 1 to 2147483647" : " of at most 64 bits, suffixed u, l, ll or none");
    if (k == GGI_T_PUNCT && paste_at(s, n, q))
      return tfail(c, q, "token pasting (%.*s) in the %s: pasted halves could spell a name these "
                   "rules refuse (_Pragma, __has_include) where no check sees it; write the whole "
                   "name", (int)paste_at(s, n, q), s + q, w);
    if (k == GGI_T_PUNCT && s[q] == '\\' && q + 1 < n && (s[q + 1] == 'u' || s[q + 1] == 'U'))
      return tfail(c, q, "a universal character name (\\%c...) outside a literal in the %s: write "
                   "the character itself", s[q + 1], w);
    char br = def && k == GGI_T_PUNCT ? bracket_at(s, n, q, &bw) : 0;
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
static int raw_rules(const char *text, const char *where, size_t *at, ggi_diag *d)
{
  for (size_t i = 0; text[i]; i++) {
    if ((unsigned char)text[i] >= 0xFE) {
      *at = i;
      ggi_fail(d, "a byte 0x%02X in the %s: no UTF-8 text holds it, and NVRTC reads 0xFF as the "
                  "end of the source; in a literal write it as an escape (\\x%02x)",
                  (unsigned char)text[i], where, (unsigned char)text[i]);
      return 1;
    }
    if (text[i] == '\r' && text[i + 1] != '\n') {
      *at = i;
      ggi_fail(d, "a carriage return that is not followed by a newline in the %s: clang reads "
                  "it as a line end and NVRTC does not; end lines with \\n", where);
      return 1;
    }
    if (text[i] == '\\') {
      size_t j = i + 1;
      while (text[j] == ' ' || text[j] == '\t' || text[j] == '\f' || text[j] == '\v') j++;
      if (j > i + 1 && (text[j] == '\n' || text[j] == '\r')) {
        *at = i;
        ggi_fail(d, "a backslash with blanks after it at the end of a line in the %s: clang "
                    "joins the lines and NVRTC does not; remove the blanks", where);
        return 1;
      }
    }
  }
  return 0;
}

int ggi_text_check(const char *text, int base_line, const char *where, unsigned targets,
                   int *line, ggi_diag *d)
{
  size_t at = 0;
  if (raw_rules(text, where, &at, d)) {
    *line = base_line;
    for (size_t i = 0; i < at; i++) *line += text[i] == '\n';
    return -1;
  }
  spliced t;
  tcheck c = {.t = &t, .where = where, .d = d, .targets = targets};
  int bad = 0, line_start = 1;
  if (splice_open(&t, text) || !(c.open = malloc(t.n + 1)) ||
      !(c.open_at = malloc((t.n + 1) * sizeof *c.open_at)) ||
      !(c.grp_depth = malloc((t.n + 1) * sizeof *c.grp_depth)) ||
      !(c.grp_end = malloc((t.n + 1) * sizeof *c.grp_end)) || !(c.grp_skip = malloc(t.n + 1)) ||
      !(c.grp_at = malloc((t.n + 1) * sizeof *c.grp_at)))
    goto done; /* out of memory: the compiler still reports */
  bad = compilers_agree(&c);
  for (size_t p = 0; !bad && p < t.n;) {
    ggi_tok k;
    size_t e = ggi_token(t.s, t.n, p, &k), a, b;
    if (k == GGI_T_SPACE) {
      for (size_t i = p; i < e; i++) line_start |= t.s[i] == '\n';
    } else if (k == GGI_T_COMMENT) {
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
