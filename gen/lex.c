/* lex.c - see lex.h. */
#include "lex.h"

#include <string.h>

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
size_t ggi_token(const char *s, size_t n, size_t p, ggi_tok *kind)
{
  char c = s[p];
  if (ggi_is_space(c) || (c == '\\' && p + 1 < n && (s[p + 1] == '\n' || s[p + 1] == '\r'))) {
    *kind = GGI_T_SPACE;
    return p + (c == '\\' ? 2 : 1);
  }
  if (c == '/' && p + 1 < n && s[p + 1] == '/') {
    *kind = GGI_T_COMMENT;
    while (p < n && s[p] != '\n') p++;
    return p;
  }
  if (c == '/' && p + 1 < n && s[p + 1] == '*') {
    *kind = GGI_T_COMMENT;
    for (p += 2; p + 1 < n && !(s[p] == '*' && s[p + 1] == '/'); p++) {}
    return p + 1 < n ? p + 2 : n;
  }
  if (c == '"' || c == '\'') {
    *kind = GGI_T_LITERAL;
    for (p++; p < n && s[p] != c && s[p] != '\n'; p++)
      if (s[p] == '\\' && p + 1 < n) p++;
    return p < n && s[p] == c ? p + 1 : p;
  }
  if (ggi_is_digit(c) || (c == '.' && p + 1 < n && ggi_is_digit(s[p + 1]))) { /* pp-number */
    *kind = GGI_T_NUMBER;
    for (p++; p < n; p++) {
      char d = s[p];
      if ((d == '+' || d == '-') && strchr("eEpP", s[p - 1])) continue;
      if (d == '\'' && p + 1 < n && ggi_is_id(s[p + 1])) continue; /* 1'000 */
      if (!ggi_is_id(d) && d != '.') break;
    }
    return p;
  }
  if (ggi_is_id0(c)) {
    size_t e = p;
    while (e < n && ggi_is_id(s[e])) e++;
    size_t r = raw_end(s, n, p, e);
    *kind = r ? GGI_T_LITERAL : GGI_T_IDENT;
    return r ? r : e;
  }
  *kind = GGI_T_PUNCT;
  if ((c == '+' || c == '-') && p + 1 < n && s[p + 1] == c) return p + 2; /* ++ -- */
  return p + 1;
}

/* The next token at or after p that is not space or a comment. */
size_t ggi_skip_space(const char *s, size_t n, size_t p)
{
  while (p < n) {
    ggi_tok k;
    size_t e = ggi_token(s, n, p, &k);
    if (k != GGI_T_SPACE && k != GGI_T_COMMENT) break;
    p = e;
  }
  return p;
}

size_t ggi_next_tok(const char *s, size_t n, size_t p, size_t *e, ggi_tok *k)
{
  p = ggi_skip_space(s, n, p);
  *e = p < n ? ggi_token(s, n, p, k) : n;
  if (p >= n) *k = GGI_T_END;
  return p;
}

int ggi_same_word(const char *s, size_t a, size_t b, const char *w)
{
  return w && b - a == strlen(w) && memcmp(s + a, w, b - a) == 0;
}

int ggi_opaque_text(const char *s)
{
  static const char *const bad[] = {"%:", "<:", ":>", "<%", "%>", "??", "decltype", "...",
                                    "addressof", "_Pragma", "\\\n", "\\\r"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (strstr(s, bad[i])) return 1;
  return 0;
}

/* The first call name(...) in text s (outside comments and literals)
 * whose argument count - the commas outside nested brackets - is not
 * want: that count, with *lines the newlines before the call; -1 when
 * every call has want arguments. */
int ggi_call_arity(const char *s, const char *name, int want, int *lines)
{
  size_t n = s ? strlen(s) : 0, p, e;
  ggi_tok k;
  for (p = 0; (p = ggi_next_tok(s, n, p, &e, &k)) < n; p = e) {
    if (k != GGI_T_IDENT || !ggi_same_word(s, p, e, name)) continue;
    size_t q = ggi_next_tok(s, n, e, &e, &k);
    if (k != GGI_T_PUNCT || s[q] != '(') continue;
    int depth = 1, args = 0, any = 0;
    while (depth > 0 && (q = ggi_next_tok(s, n, e, &e, &k)) < n) {
      const char c = s[q];
      if (k == GGI_T_PUNCT && (c == '(' || c == '[' || c == '{')) depth++;
      else if (k == GGI_T_PUNCT && (c == ')' || c == ']' || c == '}')) depth--;
      else if (k == GGI_T_PUNCT && c == ',' && depth == 1) args++;
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
  if (conservative && ggi_opaque_text(s)) return 1;
  size_t n = strlen(s), p, e;
  ggi_tok k;
  for (p = 0; (p = ggi_next_tok(s, n, p, &e, &k)) < n; p = e) {
    if (conservative && k == GGI_T_PUNCT && s[p] == '#') return 1;
    if (k == GGI_T_IDENT && ggi_same_word(s, p, e, name)) return 1;
  }
  return 0;
}

int ggi_text_names(const char *s, const char *name) { return names(s, name, 0); }
int ggi_text_may_name(const char *s, const char *name) { return names(s, name, 1); }
