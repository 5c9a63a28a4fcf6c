/*
 * fields.c - reading a declaration's fields for the loader: failing with
 * "file:line:", where each field is written, raw reads of strings,
 * integers, booleans and enums, "did you mean", unknown fields, and the
 * name rules.  Raw accesses only: no metamethod (user code) ever runs.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include <lauxlib.h>
#include <lua.h>

#include "loader.h"

#include "names.h"
#include "vocab.h"

ggi_load_ctx *ggi_load_ctx_of(lua_State *L) { return ggi_sandbox_owner(L); }

/* The spelling of enum values: vocab.h.  Bytes of an element type:
 * ggi_dtype_size(). */

int ggi_find_name(const char *const *names, const char *s) {
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}

/* "a|b|c", for messages. */
const char *ggi_join_names(const char *const *names, char *buf, size_t n) {
  buf[0] = 0;
  for (int i = 0; names[i]; i++) {
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s%s", i ? "|" : "", names[i]);
  }
  return buf;
}

/* ------------------------------------------------------------------ */
/* failing                                                             */

/* The message is one line: what the file wrote (names, the path) is
 * echoed with control characters escaped. */
void vfail(ggi_load_ctx *c, int line, const char *prefix, const char *fmt, va_list ap) {
  char what[sizeof c->d->msg];
  int n = snprintf(what, sizeof what, "%s", prefix);
  if (n >= 0 && (size_t)n < sizeof what) vsnprintf(what + n, sizeof what - (size_t)n, fmt, ap);
  ggi_fail_at(c->d, c->path, line, "%s", what);
  c->sb.failed = 1; /* d->msg holds a validation error */
}

/* Writes the message and unwinds to the pcall in run_protected(). */
_Noreturn void ggi_load_fail(ggi_load_ctx *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void ggi_load_fail(ggi_load_ctx *c, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(c, line, "", fmt, ap);
  va_end(ap);
  lua_pushliteral(c->L, "validation error");
  lua_error(c->L);
  abort(); /* lua_error does not return */
}

/* Same, prefixed with the declaration: `kernel "saxpy": `. */
_Noreturn void ggi_decl_fail(ggi_decl *k, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void ggi_decl_fail(ggi_decl *k, int line, const char *fmt, ...) {
  char prefix[200];
  snprintf(prefix, sizeof prefix, "%s: ", k->what);
  va_list ap;
  va_start(ap, fmt);
  vfail(k->c, line, prefix, fmt, ap);
  va_end(ap);
  lua_pushliteral(k->c->L, "validation error");
  lua_error(k->c->L);
  abort();
}

void *ggi_load_alloc(ggi_load_ctx *c, size_t n) {
  void *p = ggi_alloc(c->m->arena, n ? n : 1);
  if (!p) ggi_load_fail(c, 0, "out of memory");
  return p;
}

const char *ggi_load_strdup(ggi_load_ctx *c, const char *s) {
  const char *p = ggi_strdup(c->m->arena, s);
  if (!p) ggi_load_fail(c, 0, "out of memory");
  return p;
}

/* ------------------------------------------------------------------ */
/* lines: where a declaration's fields are written                     */

void ggi_index_lines(ggi_load_ctx *c) {
  int n = 1;
  for (size_t i = 0; i < c->len; i++)
    if (c->text[i] == '\n') n++;
  c->nlines = n;
  c->line_start = ggi_load_alloc(c, sizeof(size_t) * (size_t)(n + 2));
  c->line_start[1] = 0;
  int l = 1;
  for (size_t i = 0; i < c->len; i++)
    if (c->text[i] == '\n') c->line_start[++l] = i + 1;
  c->line_start[n + 1] = c->len;
}

int ggi_line_of(const ggi_load_ctx *c, size_t pos) {
  int lo = 1, hi = c->nlines;
  while (lo < hi) { /* last line whose start <= pos */
    int mid = (lo + hi + 1) / 2;
    if (c->line_start[mid] <= pos) lo = mid; else hi = mid - 1;
  }
  return lo;
}

size_t ggi_line_pos(const ggi_load_ctx *c, int line) {
  if (line < 1) return 0;
  if (line > c->nlines) return c->len;
  return c->line_start[line];
}

static int is_word(int ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Position just after `field =` (not `==`) within lines [from, to], or
 * (size_t)-1.  Good enough for the way workload files are written; when
 * the table was built by code, the caller falls back to the decl's line. */
static size_t field_pos(ggi_load_ctx *c, int from, int to, const char *field) {
  size_t fl = strlen(field), end = ggi_line_pos(c, to + 1), start = ggi_line_pos(c, from);
  if (fl == 0) return (size_t)-1;
  ggi_sandbox_charge(&c->sb, (end - start) / 64, from); /* a file can make many lookups */
  for (size_t p = start; p + fl <= end; p++) {
    if (c->text[p] != field[0] || (p > 0 && is_word(c->text[p - 1]))) continue;
    if (memcmp(c->text + p, field, fl) != 0) continue;
    size_t q = p + fl;
    while (q < end && (c->text[q] == ' ' || c->text[q] == '\t')) q++;
    if (q < end && c->text[q] == '=' && (q + 1 >= c->len || c->text[q + 1] != '=')) return q + 1;
  }
  return (size_t)-1;
}

int ggi_field_line(ggi_decl *k, const char *field) {
  size_t p = field_pos(k->c, k->line, k->end, field);
  return p == (size_t)-1 ? k->line : ggi_line_of(k->c, p);
}

/* The line where a string value's text starts: for a long string whose
 * opening bracket ends its line, Lua drops that newline, so the text
 * starts on the next line.  This is the line `#line` directives name. */
int ggi_text_line(ggi_decl *k, const char *field) {
  ggi_load_ctx *c = k->c;
  size_t p = field_pos(c, k->line, k->end, field);
  if (p == (size_t)-1) return k->line;
  while (p < c->len && isspace((unsigned char)c->text[p])) p++;
  if (p < c->len && c->text[p] == '{') { /* a list of strings: its first element */
    p++;
    while (p < c->len && isspace((unsigned char)c->text[p])) p++;
  }
  if (p < c->len && c->text[p] == '[') {
    size_t q = p + 1;
    while (q < c->len && c->text[q] == '=') q++;
    if (q < c->len && c->text[q] == '[') {
      q++;
      if (q < c->len && (c->text[q] == '\r' || c->text[q] == '\n')) return ggi_line_of(c, q) + 1;
      return ggi_line_of(c, q);
    }
  }
  return ggi_line_of(c, p < c->len ? p : c->len);
}

/* Position of the quoted string "s" (or 's') in lines [from, to] at or
 * after pos, or (size_t)-1. */
size_t ggi_quoted_pos(ggi_load_ctx *c, size_t pos, int to, const char *s) {
  size_t sl = strlen(s), end = ggi_line_pos(c, to + 1);
  if (pos < end) ggi_sandbox_charge(&c->sb, (end - pos) / 64, ggi_line_of(c, pos));
  for (size_t p = pos; p + sl + 2 <= end; p++) {
    char q = c->text[p];
    if ((q == '"' || q == '\'') && memcmp(c->text + p + 1, s, sl) == 0 && c->text[p + 1 + sl] == q)
      return p;
  }
  return (size_t)-1;
}

/* The span of a declaration's fields: from its line to the line before
 * the next declaration (decl_lines is sorted). */
int ggi_span_end(const ggi_load_ctx *c, int line) {
  int lo = 0, hi = c->ndecl; /* first index whose line is > line */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (c->decl_lines[mid] > line) hi = mid; else lo = mid + 1;
  }
  return lo < c->ndecl ? c->decl_lines[lo] - 1 : c->nlines;
}

/* ------------------------------------------------------------------ */
/* reading fields (raw accesses only: no metamethod ever runs)         */

int ggi_push_field(ggi_decl *k, const char *f) {
  lua_pushstring(k->c->L, f);
  return lua_rawget(k->c->L, k->t);
}

/* A Lua string as an arena C string; NUL bytes would cut it silently. */
const char *ggi_to_cstring(ggi_decl *k, int idx, int line, const char *what) {
  size_t n;
  const char *s = lua_tolstring(k->c->L, idx, &n);
  if (strlen(s) != n) ggi_decl_fail(k, line, "%s contains a NUL byte", what);
  return ggi_load_strdup(k->c, s);
}

const char *ggi_opt_string(ggi_decl *k, const char *f) {
  int t = ggi_push_field(k, f);
  const char *s = NULL;
  if (t == LUA_TSTRING) {
    char what[64];
    snprintf(what, sizeof what, "field '%s'", f);
    s = ggi_to_cstring(k, -1, ggi_field_line(k, f), what);
  } else if (t != LUA_TNIL) {
    ggi_decl_fail(k, ggi_field_line(k, f), "field '%s' must be a string, got %s", f, lua_typename(k->c->L, t));
  }
  lua_pop(k->c->L, 1);
  return s;
}

/* What a number at idx that is no 64-bit integer is, for a message:
 * "NaN", "inf", "9.22337e+18 (past a 64-bit integer)", "a fractional
 * number (2.5)". */
const char *ggi_non_integer_text(lua_State *L, int idx, char *buf, size_t n) {
  const double d = (double)lua_tonumber(L, idx);
  if (isnan(d)) snprintf(buf, n, "NaN");
  else if (isinf(d)) snprintf(buf, n, "%sinf", d < 0 ? "-" : "");
  else if (d == floor(d)) snprintf(buf, n, "%g (past a 64-bit integer)", d);
  else snprintf(buf, n, "a fractional number (%g)", d);
  return buf;
}

/* Returns 1 and sets *v when the field is there; integers only. */
int ggi_opt_int(ggi_decl *k, const char *f, int64_t *v) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, f), isint = 0;
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  lua_Integer x = lua_tointegerx(L, -1, &isint);
  char text[64];
  if (t != LUA_TNUMBER || !isint)
    ggi_decl_fail(k, ggi_field_line(k, f), "field '%s' must be an integer, got %s", f,
          t == LUA_TNUMBER ? ggi_non_integer_text(L, -1, text, sizeof text) : lua_typename(L, t));
  lua_pop(L, 1);
  *v = x;
  return 1;
}

int ggi_opt_bool(ggi_decl *k, const char *f) {
  int t = ggi_push_field(k, f);
  if (t != LUA_TNIL && t != LUA_TBOOLEAN)
    ggi_decl_fail(k, ggi_field_line(k, f), "field '%s' must be true or false, got %s", f, lua_typename(k->c->L, t));
  int b = lua_toboolean(k->c->L, -1);
  lua_pop(k->c->L, 1);
  return b;
}

/* A string field that must be one of names; dflt when absent. */
int ggi_opt_enum(ggi_decl *k, const char *f, const char *const *names, int dflt) {
  const char *s = ggi_opt_string(k, f);
  if (!s) return dflt;
  int i = ggi_find_name(names, s);
  char buf[256];
  if (i < 0) ggi_decl_fail(k, ggi_field_line(k, f), "field '%s' must be one of %s, got \"%s\"", f, ggi_join_names(names, buf, sizeof buf), s);
  return i;
}

/* An integer field within [lo, hi]; 0 when absent (= auto). */
int ggi_opt_range(ggi_decl *k, const char *f, int lo, int hi, int multiple) {
  int64_t v;
  if (!ggi_opt_int(k, f, &v)) return 0;
  if (v < lo || v > hi || (multiple > 1 && v % multiple))
    ggi_decl_fail(k, ggi_field_line(k, f), "field '%s' must be %s%d..%d, got %lld", f,
          multiple > 1 ? "a multiple of 32 in " : "", lo, hi, (long long)v);
  return (int)v;
}

void ggi_float_literal(double v, char *buf, size_t size) {
  snprintf(buf, size, "%.17g", v);
  if (!strpbrk(buf, ".e")) strncat(buf, ".0", size - strlen(buf) - 1);
}

int ggi_float_misfit(double v, gg_dtype t, char *why, size_t size) {
  const int mant = t == GG_F16 ? 10 : t == GG_BF16 ? 7 : t == GG_F32 ? 23 : 0;
  const int emax = t == GG_F16 ? 15 : 127;
  const int tiny = t == GG_F16 ? -24 : t == GG_BF16 ? -133 : -149;
  if (!mant) return GGI_FLOAT_FITS;
  /* FLT_MAX as printed (3.40282347e38) is still FLT_MAX */
  if (fabs(v) >= ldexp(2.0 - ldexp(1.0, -(mant + 1)), emax)) {
    snprintf(why, size, "does not fit in %s (its largest value is %g)", ggi_dtype_name(t),
             ldexp(2.0 - ldexp(1.0, -mant), emax));
    return GGI_FLOAT_TOO_BIG;
  }
  if (v != 0 && fabs(v) <= ldexp(1.0, tiny - 1)) {
    snprintf(why, size, "would be 0 in %s (its smallest nonzero value is %g)", ggi_dtype_name(t),
             ldexp(1.0, tiny));
    return GGI_FLOAT_TOO_SMALL;
  }
  return GGI_FLOAT_FITS;
}

void ggi_int_literal(long long v, const char *suffix, char *buf, size_t size) {
  if (v == LLONG_MIN) snprintf(buf, size, "(-%lldLL - 1)", LLONG_MAX);
  else snprintf(buf, size, "%lld%s", v, suffix);
}

/* Levenshtein distance, for "did you mean". */
int ggi_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 40 || lb > 40) return 99;
  int row[41];
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int prev = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int cur = row[j];
      int best = prev + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < best) best = row[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      prev = cur;
    }
  }
  return row[lb];
}

const char *ggi_closest(const char *const *names, const char *s) {
  const char *best = NULL;
  int bd = 3;
  for (int i = 0; names[i]; i++) {
    int dd = ggi_edit_distance(names[i], s);
    if (dd < bd && dd < (int)strlen(s)) {
      bd = dd;
      best = names[i];
    }
  }
  return best;
}

/* Every key of the table at index t must be a string in `allowed`.  A
 * field of `known` that is not allowed here gets `why`.  When several are
 * wrong the first in the file is reported, so messages do not depend on
 * the table's hash order; a table built by code can hold any number of
 * wrong keys, so only the GGI_LINE_KEYS alphabetically first are looked
 * up in the text. */
void ggi_check_fields(ggi_decl *k, int t, const char *const *allowed, const char *const *known,
                         const char *why) {
  lua_State *L = k->c->L;
  const char *cand[GGI_LINE_KEYS]; /* the first unknown keys by name, sorted; the table anchors them */
  int ncand = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    ggi_sandbox_charge(&k->c->sb, 1, k->line);
    lua_pop(L, 1); /* the value */
    if (lua_type(L, -1) != LUA_TSTRING) {
      if (lua_type(L, -1) == LUA_TNUMBER) {
        lua_pushvalue(L, -1); /* convert a copy: lua_next needs the key untouched */
        ggi_decl_fail(k, k->line, "unexpected list entry [%s]; fields are written name = value", lua_tostring(L, -1));
      }
      ggi_decl_fail(k, k->line, "field names must be strings, got a %s key", luaL_typename(L, -1));
    }
    const char *key = lua_tostring(L, -1);
    if (ggi_find_name(allowed, key) >= 0) continue;
    int i = ncand < GGI_LINE_KEYS ? ncand++ : GGI_LINE_KEYS;
    for (; i > 0 && strcmp(key, cand[i - 1]) < 0; i--)
      if (i < GGI_LINE_KEYS) cand[i] = cand[i - 1];
    if (i < GGI_LINE_KEYS) cand[i] = key;
  }
  if (ncand == 0) return;
  char bad[64];
  int bad_line = 0;
  for (int i = 0; i < ncand; i++) {
    int line = ggi_field_line(k, cand[i]);
    if (i == 0 || line < bad_line) {
      snprintf(bad, sizeof bad, "%s", cand[i]);
      bad_line = line;
    }
  }
  char buf[512];
  if (known && ggi_find_name(known, bad) >= 0)
    ggi_decl_fail(k, bad_line, "field '%s' does not apply here (%s); allowed: %s", bad, why,
          ggi_join_names(allowed, buf, sizeof buf));
  const char *near = ggi_closest(known ? known : allowed, bad);
  if (near && ggi_find_name(allowed, near) >= 0)
    ggi_decl_fail(k, bad_line, "unknown field '%s' (did you mean '%s'?)", bad, near);
  ggi_decl_fail(k, bad_line, "unknown field '%s'; allowed: %s", bad, ggi_join_names(allowed, buf, sizeof buf));
}

/* Length of the list at the top of the stack; every key must be 1..n. */
int ggi_list_len(ggi_decl *k, const char *f, int line) {
  lua_State *L = k->c->L;
  if (lua_type(L, -1) != LUA_TTABLE) ggi_decl_fail(k, line, "field '%s' must be a list { ... }, got %s", f, luaL_typename(L, -1));
  lua_Unsigned n = lua_rawlen(L, -1);
  lua_Unsigned count = 0;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    ggi_sandbox_charge(&k->c->sb, 1, line);
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) != LUA_TNUMBER || !isint || i < 1 || (lua_Unsigned)i > n)
      ggi_decl_fail(k, line, "field '%s' must be a plain list { a, b, ... } without named entries", f);
    count++;
  }
  if (count != n) ggi_decl_fail(k, line, "field '%s' must be a plain list without holes", f);
  if (n > GGI_LIST_MAX)
    ggi_decl_fail(k, line, "field '%s' lists %llu entries; a list holds at most %d", f, (unsigned long long)n,
          GGI_LIST_MAX);
  return (int)n;
}

/* The list at stack index `list` (the value of field `field`, "params"
 * or "scratch") written flat, { "x", "f64[n]" }: its first element is a
 * string.  Returns 1 with d->msg = why and what to write instead, else 0. */
int ggi_flat_params(lua_State *L, int list, const char *field, ggi_diag *d)
{
  list = lua_absindex(L, list);
  if (lua_type(L, list) != LUA_TTABLE) return 0;
  int first = lua_rawgeti(L, list, 1);
  lua_pop(L, 1);
  if (first != LUA_TSTRING) return 0;
  /* The fix, when the list is all strings and an even number of them:
   * each name and type pair in a table of its own. */
  lua_Integer n = (lua_Integer)lua_rawlen(L, list);
  char fix[400] = "";
  size_t at = 0;
  int ok = n >= 2 && n % 2 == 0 && n <= 16;
  for (lua_Integer i = 1; ok && i <= n; i += 2) {
    int t1 = lua_rawgeti(L, list, i), t2 = lua_rawgeti(L, list, i + 1);
    const char *a = t1 == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    const char *b = t2 == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int w = a && b && strlen(a) < 70 && strlen(b) < 70
                ? snprintf(fix + at, sizeof fix - at, "%s{ \"%s\", \"%s\" }", i > 1 ? ", " : "", a, b)
                : -1;
    lua_pop(L, 2);
    if (w < 0 || (size_t)w >= sizeof fix - at) ok = 0;
    else at += (size_t)w;
  }
  char shown[80], type[80];
  lua_rawgeti(L, list, 1);
  snprintf(shown, sizeof shown, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  int t2 = lua_rawgeti(L, list, 2);
  snprintf(type, sizeof type, "%s", t2 == LUA_TSTRING ? lua_tostring(L, -1) : "f32[n]");
  lua_pop(L, 1);
  if (ok)
    ggi_fail(d, "field '%s' is a list of { name, type } tables, one per %s; "
                "%s[1] is the string \"%s\": write %s = { %s }", field,
                strcmp(field, "scratch") == 0 ? "scratch view" : "parameter", field, shown, field, fix);
  else
    ggi_fail(d, "field '%s' is a list of { name, type } tables, one per %s; "
                "%s[1] is the string \"%s\": write %s = { { \"%s\", \"%s\" }, ... }", field,
                strcmp(field, "scratch") == 0 ? "scratch view" : "parameter", field, shown, field,
                shown, type);
  return 1;
}

/* ------------------------------------------------------------------ */
/* names, types and extents                                            */

/* The name rules of names.h; `what` is e.g. "parameter". */
void ggi_check_name(ggi_decl *k, int line, const char *what, const char *s) {
  const char *why = ggi_name_problem(s);
  if (why) ggi_decl_fail(k, line, "%s \"%s\" %s", what, s, why);
}

