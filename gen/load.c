/*
 * load.c - run a workload file in a Lua sandbox and validate it into IR.
 *
 * Two phases, both inside one fresh lua_State:
 *
 *   1. run the file.  `module`, `kernel` and `persistent` only record
 *      their tables (with the line of the call) in a list; nothing is
 *      validated yet, so declarations may come in any order.
 *   2. convert: walk the recorded tables with raw accesses only (no
 *      metamethods, so no user code runs) and build the IR, failing at
 *      the first mistake with "file:line: message".
 *
 * Both phases run under lua_pcall.  A validation error is raised as a Lua
 * error after the message has been written to the diag, so the checks read
 * top to bottom without error plumbing; everything allocated on the way
 * lives in the module's arena and is freed with it.
 *
 * The sandbox (sandbox.c) runs the file with limits; here are only the
 * three declaration functions it gets.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "body_check.h"
#include "load.h"
#include "names.h"
#include "plan.h"
#include "sandbox.h"

#define GGI_MAX_FILE ((size_t)16 << 20)     /* bigger than any sane workload file */
#define GGI_MAX_DECLS 4096                  /* kernels and persistent loops in one file */
#define GGI_LINE_KEYS 8                     /* unknown fields whose lines are looked up */
#define GGI_MAX_SCRATCH 49152               /* static shared memory per block, all GPUs */
/* Anything sized when the kernel is generated (a static extent, a view's
 * static bytes, a static range's indices, a static league) is at most
 * 2^48: far beyond any GPU's memory, and small enough that no size the
 * generator or the kernels compute from it (times a block, items, a tile)
 * overflows 64 bits. */
#define GGI_MAX_STATIC ((int64_t)1 << 48)
#define GGI_MAX_STATIC_TEXT "2^48 (281474976710656)"

/* Everything one load needs; reached from Lua through the state's extra space. */
typedef struct ctx {
  const char *path;
  const char *text;
  size_t len;
  int nlines;
  size_t *line_start;      /* offset of each line (1-based), in the arena */
  ggi_module *m;
  ggi_diag *d;
  lua_State *L;            /* sb.L */
  ggi_sandbox sb;
  int *decl_lines;         /* lines of all declarations, sorted: spans of fields */
  int ndecl;
} ctx;

/* One declaration being converted: the Lua table at stack index t. */
typedef struct decl {
  ctx *c;
  char what[160];          /* `kernel "saxpy"`, for messages */
  const char *name;        /* the declared name (NULL for module) */
  int line, end;           /* span of lines where its fields are written */
  int t;
} decl;

static ctx *ctx_of(lua_State *L) { return ggi_sandbox_owner(L); }

/* ------------------------------------------------------------------ */
/* names of enum values, in enum order                                 */

static const char *const dtype_names[] = {"i32", "u32", "i64", "u64", "f32", "f64", "f16", "bf16", NULL};
static const int dtype_bytes[] = {4, 4, 8, 8, 4, 8, 2, 2};
static const char *const pattern_names[] = {"for", "reduce", "scan", "team", "tile_reduce", NULL};
static const char *const layout_names[] = {"right", "left", "stride", NULL};
static const char *const space_names[] = {"device", "mapped", "managed", "host", NULL};
static const char *const access_names[] = {"in", "out", "inout", "atomic", NULL};
static const char *const op_names[] = {"sum", "min", "max", "prod", NULL};
static const char *const strategy_names[] = {"auto", "global_atomic", "shared_atomic", "warp_shuffle",
                                             "shared_tree", "cg_tile", "grid_sync", "deterministic", NULL};
static const char *const launch_names[] = {"classic", "cooperative", NULL};
static const char *const playout_names[] = {"one_block", "many_blocks", "thread_groups", "hybrid", NULL};
static const char *const scan_names[] = {"inclusive", "exclusive", NULL};
static const char *const target_names[] = {"cuda", "hip", NULL};

/* Fields each declaration accepts.  kernel_fields is the union, used for
 * "did you mean"; pattern_fields says which apply to which pattern. */
static const char *const module_fields[] = {"name", "targets", NULL};
static const char *const param_fields[] = {"access", "layout", "space", NULL};
static const char *const persistent_fields[] = {"layout", "commands", "buffering", "block",
                                                "blocks", "groups", NULL};
static const char *const kernel_fields[] = {
  "pattern", "range", "index", "params", "body", "block", "items", "vector", "launch",
  "value", "op", "combine", "identity", "into", "type", "strategy", "allow_cas", "kind",
  "tile", "league", "team_size", "scratch", NULL};
static const char *const for_fields[] = {"pattern", "range", "index", "params", "body", "block",
                                         "items", "vector", "launch", NULL};
static const char *const reduce_fields[] = {
  "pattern", "range", "index", "params", "block", "items", "vector", "launch", "value", "op",
  "combine", "identity", "into", "type", "strategy", "allow_cas", NULL};
/* Each pattern accepts only the knobs it uses: scan loads element by
 * element (no vector); tile_reduce's items come from its tile and it has
 * one way to reduce (no strategy, no atomics). */
static const char *const scan_fields[] = {
  "pattern", "range", "index", "params", "block", "items", "launch", "value", "op",
  "combine", "identity", "into", "type", "kind", NULL};
static const char *const team_fields[] = {"pattern", "params", "body", "launch", "league",
                                          "team_size", "scratch", NULL};
static const char *const tile_fields[] = {
  "pattern", "range", "index", "params", "block", "launch", "value", "op",
  "combine", "identity", "into", "type", "tile", NULL};
static const char *const *const pattern_fields[] = {for_fields, reduce_fields, scan_fields,
                                                    team_fields, tile_fields};

static int find_name(const char *const *names, const char *s) {
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}

/* "a|b|c", for messages. */
static const char *join(const char *const *names, char *buf, size_t n) {
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
static void vfail(ctx *c, int line, const char *prefix, const char *fmt, va_list ap) {
  char raw[sizeof c->d->msg];
  int n = line > 0 ? snprintf(raw, sizeof raw, "%s:%d: %s", c->path, line, prefix)
                   : snprintf(raw, sizeof raw, "%s: %s", c->path, prefix);
  if (n >= 0 && (size_t)n < sizeof raw) vsnprintf(raw + n, sizeof raw - n, fmt, ap);
  ggi_clean(c->d->msg, sizeof c->d->msg, raw);
  c->sb.failed = 1; /* d->msg holds a validation error */
}

/* Writes the message and unwinds to the pcall in run_protected(). */
static _Noreturn void fail(ctx *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void fail(ctx *c, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(c, line, "", fmt, ap);
  va_end(ap);
  lua_pushliteral(c->L, "validation error");
  lua_error(c->L);
  abort(); /* lua_error does not return */
}

/* Same, prefixed with the declaration: `kernel "saxpy": `. */
static _Noreturn void dfail(decl *k, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void dfail(decl *k, int line, const char *fmt, ...) {
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

static void *xalloc(ctx *c, size_t n) {
  void *p = ggi_alloc(c->m->arena, n ? n : 1);
  if (!p) fail(c, 0, "out of memory");
  return p;
}

static const char *xstrdup(ctx *c, const char *s) {
  const char *p = ggi_strdup(c->m->arena, s);
  if (!p) fail(c, 0, "out of memory");
  return p;
}

/* ------------------------------------------------------------------ */
/* lines: where a declaration's fields are written                     */

static void index_lines(ctx *c) {
  int n = 1;
  for (size_t i = 0; i < c->len; i++)
    if (c->text[i] == '\n') n++;
  c->nlines = n;
  c->line_start = xalloc(c, sizeof(size_t) * (size_t)(n + 2));
  c->line_start[1] = 0;
  int l = 1;
  for (size_t i = 0; i < c->len; i++)
    if (c->text[i] == '\n') c->line_start[++l] = i + 1;
  c->line_start[n + 1] = c->len;
}

static int line_of(const ctx *c, size_t pos) {
  int lo = 1, hi = c->nlines;
  while (lo < hi) { /* last line whose start <= pos */
    int mid = (lo + hi + 1) / 2;
    if (c->line_start[mid] <= pos) lo = mid; else hi = mid - 1;
  }
  return lo;
}

static size_t line_pos(const ctx *c, int line) {
  if (line < 1) return 0;
  if (line > c->nlines) return c->len;
  return c->line_start[line];
}

static int is_word(int ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Position just after `field =` (not `==`) within lines [from, to], or
 * (size_t)-1.  Good enough for the way workload files are written; when
 * the table was built by code, the caller falls back to the decl's line. */
static size_t field_pos(ctx *c, int from, int to, const char *field) {
  size_t fl = strlen(field), end = line_pos(c, to + 1), start = line_pos(c, from);
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

static int field_line(decl *k, const char *field) {
  size_t p = field_pos(k->c, k->line, k->end, field);
  return p == (size_t)-1 ? k->line : line_of(k->c, p);
}

/* The line where a string value's text starts: for a long string whose
 * opening bracket ends its line, Lua drops that newline, so the text
 * starts on the next line.  This is the line `#line` directives name. */
static int text_line(decl *k, const char *field) {
  ctx *c = k->c;
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
      if (q < c->len && (c->text[q] == '\r' || c->text[q] == '\n')) return line_of(c, q) + 1;
      return line_of(c, q);
    }
  }
  return line_of(c, p < c->len ? p : c->len);
}

/* Position of the quoted string "s" (or 's') in lines [from, to] at or
 * after pos, or (size_t)-1. */
static size_t quoted_pos(ctx *c, size_t pos, int to, const char *s) {
  size_t sl = strlen(s), end = line_pos(c, to + 1);
  if (pos < end) ggi_sandbox_charge(&c->sb, (end - pos) / 64, line_of(c, pos));
  for (size_t p = pos; p + sl + 2 <= end; p++) {
    char q = c->text[p];
    if ((q == '"' || q == '\'') && memcmp(c->text + p + 1, s, sl) == 0 && c->text[p + 1 + sl] == q)
      return p;
  }
  return (size_t)-1;
}

/* The span of a declaration's fields: from its line to the line before
 * the next declaration (decl_lines is sorted). */
static int span_end(const ctx *c, int line) {
  int lo = 0, hi = c->ndecl; /* first index whose line is > line */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (c->decl_lines[mid] > line) hi = mid; else lo = mid + 1;
  }
  return lo < c->ndecl ? c->decl_lines[lo] - 1 : c->nlines;
}

/* ------------------------------------------------------------------ */
/* reading fields (raw accesses only: no metamethod ever runs)         */

static int push_field(decl *k, const char *f) {
  lua_pushstring(k->c->L, f);
  return lua_rawget(k->c->L, k->t);
}

/* A Lua string as an arena C string; NUL bytes would cut it silently. */
static const char *to_cstring(decl *k, int idx, int line, const char *what) {
  size_t n;
  const char *s = lua_tolstring(k->c->L, idx, &n);
  if (strlen(s) != n) dfail(k, line, "%s contains a NUL byte", what);
  return xstrdup(k->c, s);
}

static const char *opt_string(decl *k, const char *f) {
  int t = push_field(k, f);
  const char *s = NULL;
  if (t == LUA_TSTRING) {
    char what[64];
    snprintf(what, sizeof what, "field '%s'", f);
    s = to_cstring(k, -1, field_line(k, f), what);
  } else if (t != LUA_TNIL) {
    dfail(k, field_line(k, f), "field '%s' must be a string, got %s", f, lua_typename(k->c->L, t));
  }
  lua_pop(k->c->L, 1);
  return s;
}

/* Returns 1 and sets *v when the field is there; integers only. */
static int opt_int(decl *k, const char *f, int64_t *v) {
  lua_State *L = k->c->L;
  int t = push_field(k, f), isint = 0;
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  lua_Integer x = lua_tointegerx(L, -1, &isint);
  if (t != LUA_TNUMBER || !isint)
    dfail(k, field_line(k, f), "field '%s' must be an integer, got %s", f,
          t == LUA_TNUMBER ? "a fractional number" : lua_typename(L, t));
  lua_pop(L, 1);
  *v = x;
  return 1;
}

static int opt_bool(decl *k, const char *f) {
  int t = push_field(k, f);
  if (t != LUA_TNIL && t != LUA_TBOOLEAN)
    dfail(k, field_line(k, f), "field '%s' must be true or false, got %s", f, lua_typename(k->c->L, t));
  int b = lua_toboolean(k->c->L, -1);
  lua_pop(k->c->L, 1);
  return b;
}

/* A string field that must be one of names; dflt when absent. */
static int opt_enum(decl *k, const char *f, const char *const *names, int dflt) {
  const char *s = opt_string(k, f);
  if (!s) return dflt;
  int i = find_name(names, s);
  char buf[256];
  if (i < 0) dfail(k, field_line(k, f), "field '%s' must be one of %s, got \"%s\"", f, join(names, buf, sizeof buf), s);
  return i;
}

/* An integer field within [lo, hi]; 0 when absent (= auto). */
static int opt_range(decl *k, const char *f, int lo, int hi, int multiple) {
  int64_t v;
  if (!opt_int(k, f, &v)) return 0;
  if (v < lo || v > hi || (multiple > 1 && v % multiple))
    dfail(k, field_line(k, f), "field '%s' must be %s%d..%d, got %lld", f,
          multiple > 1 ? "a multiple of 32 in " : "", lo, hi, (long long)v);
  return (int)v;
}

/* Levenshtein distance, for "did you mean". */
static int distance(const char *a, const char *b) {
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

static const char *closest(const char *const *names, const char *s) {
  const char *best = NULL;
  int bd = 3;
  for (int i = 0; names[i]; i++) {
    int dd = distance(names[i], s);
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
static void check_fields(decl *k, int t, const char *const *allowed, const char *const *known,
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
        dfail(k, k->line, "unexpected list entry [%s]; fields are written name = value", lua_tostring(L, -1));
      }
      dfail(k, k->line, "field names must be strings, got a %s key", luaL_typename(L, -1));
    }
    const char *key = lua_tostring(L, -1);
    if (find_name(allowed, key) >= 0) continue;
    int i = ncand < GGI_LINE_KEYS ? ncand++ : GGI_LINE_KEYS;
    for (; i > 0 && strcmp(key, cand[i - 1]) < 0; i--)
      if (i < GGI_LINE_KEYS) cand[i] = cand[i - 1];
    if (i < GGI_LINE_KEYS) cand[i] = key;
  }
  if (ncand == 0) return;
  char bad[64];
  int bad_line = 0;
  for (int i = 0; i < ncand; i++) {
    int line = field_line(k, cand[i]);
    if (i == 0 || line < bad_line) {
      snprintf(bad, sizeof bad, "%s", cand[i]);
      bad_line = line;
    }
  }
  char buf[512];
  if (known && find_name(known, bad) >= 0)
    dfail(k, bad_line, "field '%s' does not apply here (%s); allowed: %s", bad, why,
          join(allowed, buf, sizeof buf));
  const char *near = closest(known ? known : allowed, bad);
  if (near && find_name(allowed, near) >= 0)
    dfail(k, bad_line, "unknown field '%s' (did you mean '%s'?)", bad, near);
  dfail(k, bad_line, "unknown field '%s'; allowed: %s", bad, join(allowed, buf, sizeof buf));
}

/* Length of the list at the top of the stack; every key must be 1..n. */
static int list_len(decl *k, const char *f, int line) {
  lua_State *L = k->c->L;
  if (lua_type(L, -1) != LUA_TTABLE) dfail(k, line, "field '%s' must be a list { ... }, got %s", f, luaL_typename(L, -1));
  lua_Unsigned n = lua_rawlen(L, -1);
  lua_Unsigned count = 0;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    ggi_sandbox_charge(&k->c->sb, 1, line);
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) != LUA_TNUMBER || !isint || i < 1 || (lua_Unsigned)i > n)
      dfail(k, line, "field '%s' must be a plain list { a, b, ... } without named entries", f);
    count++;
  }
  if (count != n || n > 1000) dfail(k, line, "field '%s' must be a plain list without holes", f);
  return (int)n;
}

/* ------------------------------------------------------------------ */
/* names, types and extents                                            */

/* The name rules of names.h; `what` is e.g. "parameter". */
static void check_name(decl *k, int line, const char *what, const char *s) {
  const char *why = ggi_name_problem(s);
  if (why) dfail(k, line, "%s \"%s\" %s", what, s, why);
}

/* Extents as written in a view type ("n", "32") or a range entry. */
static ggi_extent parse_extent_text(decl *k, int line, const char *view, const char *e) {
  ggi_extent x = {NULL, 0};
  if (isdigit((unsigned char)e[0]) || e[0] == '-' || e[0] == '+') {
    char *end;
    errno = 0;
    long long v = strtoll(e, &end, 10);
    if (*end || (errno && errno != ERANGE)) dfail(k, line, "view \"%s\": extent \"%s\" is not a number or a name", view, e);
    if (v <= 0 && errno != ERANGE) dfail(k, line, "view \"%s\": extent %lld must be positive", view, v);
    if (errno == ERANGE || v > GGI_MAX_STATIC)
      dfail(k, line, "view \"%s\": extent %s is too large; a static extent is at most " GGI_MAX_STATIC_TEXT, view, e);
    x.value = v;
    return x;
  }
  check_name(k, line, "extent", e);
  x.name = xstrdup(k->c, e);
  return x;
}

/* unit times the static ones of ext[0..n), each at most GGI_MAX_STATIC;
 * fails at line when the product passes GGI_MAX_STATIC. */
static int64_t static_product(decl *k, int line, const ggi_extent *ext, int n, int64_t unit,
                              const char *what) {
  int64_t p = unit;
  for (int i = 0; i < n; i++) {
    if (ext[i].name) continue;
    if (ext[i].value > GGI_MAX_STATIC / p)
      dfail(k, line, "%s: its static extents make more than " GGI_MAX_STATIC_TEXT " %s, the limit "
            "for sizes known when the kernel is generated", what, unit > 1 ? "bytes" : "indices");
    p *= ext[i].value;
  }
  return p;
}

/* The element type a C or CUDA type name most likely means, for "did
 * you mean": the name as written before any '[' (n bytes), case ignored. */
static const char *dtype_for_c_name(const char *s, size_t n) {
  static const char *const table[][2] = {
    {"double", "f64"}, {"float", "f32"}, {"int", "i32"}, {"int32_t", "i32"}, {"signed", "i32"},
    {"unsigned", "u32"}, {"unsigned int", "u32"}, {"uint32_t", "u32"}, {"uint", "u32"},
    {"long", "i64"}, {"long long", "i64"}, {"long int", "i64"}, {"int64_t", "i64"},
    {"ssize_t", "i64"}, {"ptrdiff_t", "i64"}, {"unsigned long", "u64"},
    {"unsigned long long", "u64"}, {"uint64_t", "u64"}, {"size_t", "u64"}, {"half", "f16"},
    {"__half", "f16"}, {"float16", "f16"}, {"_float16", "f16"}, {"bfloat16", "bf16"},
    {"__bf16", "bf16"}, {"__nv_bfloat16", "bf16"}, {"hip_bfloat16", "bf16"},
    {"i32", "i32"}, {"u32", "u32"}, {"i64", "i64"}, {"u64", "u64"}, {"f32", "f32"},
    {"f64", "f64"}, {"f16", "f16"}, {"bf16", "bf16"}, /* in another case: "F32" */
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strlen(table[i][0]) == n && strncasecmp(table[i][0], s, n) == 0) return table[i][1];
  return NULL;
}

/* "f32[n][4]" -> dtype, rank, extents. */
static void parse_type(decl *k, int line, const char *view, const char *s, ggi_param *p) {
  char buf[256];
  const char *br = strchr(s, '[');
  size_t n = br ? (size_t)(br - s) : strlen(s);
  if (n >= 16) n = 15;
  memcpy(buf, s, n);
  buf[n] = 0;
  int dt = find_name(dtype_names, buf);
  char all[128];
  const char *mean = dt < 0 ? dtype_for_c_name(s, br ? (size_t)(br - s) : strlen(s)) : NULL;
  if (mean)
    dfail(k, line, "\"%s\": unknown type \"%s\" (did you mean %s?); element types are %s", view,
          buf, mean, join(dtype_names, all, sizeof all));
  if (dt < 0)
    dfail(k, line, "\"%s\": unknown type \"%s\"; element types are %s", view, buf,
          join(dtype_names, all, sizeof all));
  p->dtype = (gg_dtype)dt;
  p->rank = 0;
  while (br && *br == '[') {
    const char *close = strchr(br, ']');
    if (!close || close - br - 1 <= 0 || close - br - 1 >= 64)
      dfail(k, line, "\"%s\": type \"%s\" is malformed; write a type and up to 3 extents, e.g. \"f32[n][4]\"", view, s);
    if (p->rank == GGI_MAX_RANK)
      dfail(k, line, "\"%s\": type \"%s\" has rank > 3; views have 1 to 3 extents", view, s);
    memcpy(buf, br + 1, (size_t)(close - br - 1));
    buf[close - br - 1] = 0;
    p->ext[p->rank++] = parse_extent_text(k, line, view, buf);
    br = close + 1;
  }
  if (br && *br)
    dfail(k, line, "\"%s\": type \"%s\" is malformed; write a type and up to 3 extents, e.g. \"f32[n][4]\"", view, s);
  p->kind = p->rank ? GG_PARAM_VIEW : GG_PARAM_SCALAR;
  char what[96];
  snprintf(what, sizeof what, "view \"%.64s\"", view);
  static_product(k, line, p->ext, p->rank, dtype_bytes[dt], what);
}

/* Run-time extents become i64 parameters, in order of first use. */
static void add_extent(ggi_kernel *kn, const char *name, int cap) {
  for (int i = 0; i < kn->nextents; i++)
    if (strcmp(kn->extents[i], name) == 0) return;
  if (kn->nextents < cap) kn->extents[kn->nextents++] = name;
}

static const ggi_param *find_param(const ggi_kernel *kn, const char *name) {
  for (int i = 0; i < kn->nparams; i++)
    if (strcmp(kn->params[i].name, name) == 0) return &kn->params[i];
  return NULL;
}

static int same_extent(ggi_extent a, ggi_extent b) {
  if (a.name || b.name) return a.name && b.name && strcmp(a.name, b.name) == 0;
  return a.value == b.value;
}

static const char *extent_text(ggi_extent e, char *buf, size_t n) {
  if (e.name) snprintf(buf, n, "%s", e.name);
  else snprintf(buf, n, "%lld", (long long)e.value);
  return buf;
}

/* ------------------------------------------------------------------ */
/* params and scratch                                                  */

/* One { "name", "type", access = ..., ... } entry at the top of the stack. */
static void read_param(decl *k, int idx, size_t *pos, int params_line, int scratch, ggi_param *p) {
  lua_State *L = k->c->L;
  const char *list = scratch ? "scratch" : "params";
  if (lua_type(L, -1) != LUA_TTABLE)
    dfail(k, params_line, "%s[%d] must be a table { \"name\", \"type\", ... }, got %s", list, idx, luaL_typename(L, -1));
  decl e = *k;
  e.t = lua_gettop(L);
  int n1 = lua_rawgeti(L, e.t, 1), n2 = lua_rawgeti(L, e.t, 2);
  if (n1 != LUA_TSTRING || n2 != LUA_TSTRING)
    dfail(k, params_line, "%s[%d] must start with a name and a type, as in { \"x\", \"f32[n]\" }", list, idx);
  const char *name = to_cstring(k, -2, params_line, "a parameter name");
  const char *type = to_cstring(k, -1, params_line, "a parameter type");
  lua_pop(L, 2);
  size_t at = quoted_pos(k->c, *pos, k->end, name);
  int line = at == (size_t)-1 ? params_line : line_of(k->c, at);
  if (at != (size_t)-1) *pos = at + 1;
  p->name = name;
  p->line = line;
  check_name(k, line, "parameter", name);
  /* the entry's own fields: [1], [2], access, layout, space */
  lua_pushnil(L);
  while (lua_next(L, e.t)) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) == LUA_TNUMBER && isint && (i == 1 || i == 2)) continue;
    if (lua_type(L, -1) == LUA_TNUMBER) {
      lua_pushvalue(L, -1);
      dfail(k, line, "\"%s\": unexpected list entry [%s]; write access = ..., layout = ..., space = ...", name,
            lua_tostring(L, -1));
    }
    if (lua_type(L, -1) != LUA_TSTRING) dfail(k, line, "\"%s\": field names must be strings", name);
    const char *key = lua_tostring(L, -1);
    if (scratch || find_name(param_fields, key) < 0) {
      const char *near = scratch ? NULL : closest(param_fields, key);
      char buf[128];
      if (near) dfail(k, line, "\"%s\": unknown field '%s' (did you mean '%s'?)", name, key, near);
      dfail(k, line, "\"%s\": unknown field '%s'; allowed: %s", name, key,
            scratch ? "none (scratch entries are { \"name\", \"type[extents]\" })" : join(param_fields, buf, sizeof buf));
    }
  }
  parse_type(k, line, name, type, p);
  if (p->kind == GG_PARAM_SCALAR) {
    for (int i = 0; param_fields[i]; i++) {
      int t = push_field(&e, param_fields[i]);
      lua_pop(L, 1);
      if (t != LUA_TNIL)
        dfail(k, line, "\"%s\": field '%s' applies to views only; \"%s\" is a scalar", name, param_fields[i], type);
    }
    return;
  }
  e.line = line;
  snprintf(e.what, sizeof e.what, "%.90s: \"%.64s\"", k->what, name);
  /* one line per entry is usual; keep field lookups to it */
  e.end = line;
  p->access = (gg_access)opt_enum(&e, "access", access_names, GG_ACCESS_IN);
  p->layout = (gg_layout)opt_enum(&e, "layout", layout_names, GG_LAYOUT_RIGHT);
  p->space = (gg_space)opt_enum(&e, "space", space_names, GG_SPACE_DEVICE);
  if (scratch) p->access = GG_ACCESS_INOUT;
}

static ggi_param *read_params(decl *k, const char *f, int *count, int scratch) {
  lua_State *L = k->c->L;
  int t = push_field(k, f);
  int line = field_line(k, f);
  *count = 0;
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return NULL;
  }
  int n = list_len(k, f, line);
  char flat[600];
  if (ggi_flat_params(L, -1, f, flat, sizeof flat)) dfail(k, line, "%s", flat);
  ggi_param *ps = xalloc(k->c, sizeof *ps * (size_t)(n ? n : 1));
  size_t pos = line_pos(k->c, line);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    read_param(k, i + 1, &pos, line, scratch, &ps[i]);
    lua_pop(L, 1);
    for (int j = 0; j < i; j++)
      if (strcmp(ps[j].name, ps[i].name) == 0)
        dfail(k, ps[i].line, "duplicate name \"%s\" in %s (first at line %d)", ps[i].name, f, ps[j].line);
  }
  lua_pop(L, 1);
  *count = n;
  return ps;
}

/* ------------------------------------------------------------------ */
/* a kernel                                                            */

static void read_range(decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  int t = push_field(k, "range");
  int line = field_line(k, "range");
  if (t == LUA_TNIL)
    dfail(k, k->line, "field 'range' is missing; pattern \"%s\" needs range = { extent, ... } (1 to 3 names or integers)",
          pattern_names[kn->pattern]);
  int n = list_len(k, "range", line);
  if (n < 1 || n > GGI_MAX_RANK) dfail(k, line, "field 'range' must have 1 to 3 extents, got %d", n);
  for (int i = 0; i < n; i++) {
    int ti = lua_rawgeti(L, -1, i + 1), isint = 0;
    if (ti == LUA_TSTRING) {
      const char *s = to_cstring(k, -1, line, "range");
      check_name(k, line, "range extent", s);
      kn->range[i].name = s;
    } else if (ti == LUA_TNUMBER) {
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint) dfail(k, line, "range[%d] must be an integer or a name, got a fractional number", i + 1);
      if (v <= 0) dfail(k, line, "range[%d] must be positive, got %lld", i + 1, (long long)v);
      if (v > GGI_MAX_STATIC)
        dfail(k, line, "range[%d] is %lld; a static extent is at most " GGI_MAX_STATIC_TEXT, i + 1, (long long)v);
      kn->range[i].value = v;
    } else {
      dfail(k, line, "range[%d] must be an extent name or an integer, got %s", i + 1, lua_typename(L, ti));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  kn->rank = n;
  static_product(k, line, kn->range, n, 1, "field 'range'");
}

static void read_index(decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  static const char *const dflt[] = {"i", "j", "k"};
  for (int i = 0; i < GGI_MAX_RANK; i++) kn->index[i] = dflt[i];
  int t = push_field(k, "index");
  int line = field_line(k, "index");
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  int n = list_len(k, "index", line);
  if (n != kn->rank) dfail(k, line, "field 'index' names %d indices but the range has rank %d", n, kn->rank);
  for (int i = 0; i < n; i++) {
    if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) dfail(k, line, "index[%d] must be a name", i + 1);
    kn->index[i] = to_cstring(k, -1, line, "index");
    check_name(k, line, "index", kn->index[i]);
    lua_pop(L, 1);
    for (int j = 0; j < i; j++)
      if (strcmp(kn->index[j], kn->index[i]) == 0) dfail(k, line, "duplicate name \"%s\" in index", kn->index[i]);
  }
  lua_pop(L, 1);
}

/* value = "expr" or { "expr1", "expr2", ... } */
static void read_values(decl *k, ggi_kernel *kn, int max) {
  lua_State *L = k->c->L;
  int t = push_field(k, "value");
  int line = field_line(k, "value");
  kn->value_line = text_line(k, "value");
  if (t == LUA_TNIL)
    dfail(k, k->line, "field 'value' is missing; pattern \"%s\" needs value = \"expression in %s\"",
          pattern_names[kn->pattern], kn->index[0]);
  if (t == LUA_TSTRING) {
    kn->nvalues = 1;
    kn->values[0] = to_cstring(k, -1, line, "field 'value'");
  } else if (t == LUA_TTABLE) {
    int n = list_len(k, "value", line);
    if (n < 1 || n > max)
      dfail(k, line, "field 'value' must hold 1 to %d expressions for pattern \"%s\", got %d", max,
            pattern_names[kn->pattern], n);
    for (int i = 0; i < n; i++) {
      if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) dfail(k, line, "value[%d] must be a string expression", i + 1);
      kn->values[i] = to_cstring(k, -1, line, "field 'value'");
      lua_pop(L, 1);
    }
    kn->nvalues = n;
  } else {
    dfail(k, line, "field 'value' must be a string expression or a list of them, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  for (int i = 0; i < kn->nvalues; i++)
    if (!kn->values[i][strspn(kn->values[i], " \t\r\n")]) dfail(k, line, "field 'value' is empty");
}

/* identity = "0" or 0: kept as text for the templates.  A number becomes a
 * C literal every compiler reads the same way: +-math.huge the prelude's
 * (+-GG_INF) (*infinite set), the most negative integer an expression
 * (its digits alone are no long long literal); NaN is no identity. */
static const char *read_identity(decl *k, int *infinite) {
  lua_State *L = k->c->L;
  int t = push_field(k, "identity");
  int line = field_line(k, "identity");
  const char *s = NULL;
  char buf[64];
  *infinite = 0;
  if (t == LUA_TNUMBER) {
    if (lua_isinteger(L, -1)) {
      lua_Integer v = lua_tointeger(L, -1);
      if (v == LUA_MININTEGER) snprintf(buf, sizeof buf, "(-%lldLL - 1)", (long long)LUA_MAXINTEGER);
      else snprintf(buf, sizeof buf, "%lld", (long long)v);
    } else {
      double v = (double)lua_tonumber(L, -1);
      if (isnan(v))
        dfail(k, line, "field 'identity' is NaN (0/0), which is no identity: combine(NaN, a) is not a; "
              "give a number x with combine(x, a) == a");
      if (isinf(v)) {
        *infinite = 1;
        snprintf(buf, sizeof buf, "%s", v > 0 ? "(GG_INF)" : "(-GG_INF)");
      } else {
        snprintf(buf, sizeof buf, "%.17g", v);
      }
    }
    s = xstrdup(k->c, buf);
  } else if (t == LUA_TSTRING) {
    s = to_cstring(k, -1, line, "field 'identity'");
  } else if (t != LUA_TNIL) {
    dfail(k, line, "field 'identity' must be a number or a string, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  return s;
}

static void read_op(decl *k, ggi_kernel *kn, int *infinite) {
  kn->combine = opt_string(k, "combine");
  kn->identity = read_identity(k, infinite);
  int has_op = push_field(k, "op") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  if (kn->combine) {
    if (has_op) dfail(k, field_line(k, "op"), "give either op or combine, not both");
    if (!kn->identity)
      dfail(k, field_line(k, "combine"), "field 'identity' is missing; combine = \"...\" needs identity = the value x with combine(x, a) == a");
    kn->op = GGI_OP_CUSTOM;
    return;
  }
  if (kn->identity) dfail(k, field_line(k, "identity"), "field 'identity' goes with combine; op \"...\" has its own");
  kn->op = (ggi_op)opt_enum(k, "op", op_names, GGI_OP_SUM);
}

/* The view `into` names, checked for access. */
static const ggi_param *read_into(decl *k, ggi_kernel *kn) {
  int line = field_line(k, "into");
  kn->into = opt_string(k, "into");
  if (!kn->into) dfail(k, k->line, "field 'into' is missing; name the out/inout view that receives the result");
  const ggi_param *p = find_param(kn, kn->into);
  if (!p || p->kind != GG_PARAM_VIEW)
    dfail(k, line, "field 'into' must name a view parameter with access \"out\" or \"inout\"; \"%s\" is %s",
          kn->into, p ? "a scalar" : "not a parameter");
  if (p->access != GG_ACCESS_OUT && p->access != GG_ACCESS_INOUT)
    dfail(k, line, "field 'into': view \"%s\" has access \"%s\"; the result view needs access = \"out\" or \"inout\"",
          kn->into, access_names[p->access]);
  if (p->rank != 1) dfail(k, line, "field 'into': view \"%s\" must have rank 1, got rank %d", kn->into, p->rank);
  return p;
}

static void check_into_extent(decl *k, ggi_kernel *kn, const ggi_param *into) {
  int line = field_line(k, "into");
  char a[64], b[64];
  ggi_extent want = {NULL, kn->nvalues};
  ggi_extent n = kn->range[0];
  switch (kn->pattern) {
  case GG_PATTERN_REDUCE:
    if (!same_extent(into->ext[0], want))
      dfail(k, line, "field 'into': view \"%s\" must have extent [%d] (one element per value), got [%s]",
            kn->into, kn->nvalues, extent_text(into->ext[0], a, sizeof a));
    break;
  case GG_PATTERN_SCAN:
    if (!same_extent(into->ext[0], n))
      dfail(k, line, "field 'into': view \"%s\" must have the range's extent [%s], got [%s]", kn->into,
            extent_text(n, b, sizeof b), extent_text(into->ext[0], a, sizeof a));
    break;
  case GG_PATTERN_TILE_REDUCE:
    if (!n.name) {
      int64_t tiles = (n.value + kn->tile - 1) / kn->tile;
      if (into->ext[0].name || into->ext[0].value != tiles)
        dfail(k, line, "field 'into': view \"%s\" must have extent [%lld] = ceil(%lld / tile %d), got [%s]",
              kn->into, (long long)tiles, (long long)n.value, kn->tile, extent_text(into->ext[0], a, sizeof a));
    } else if (!into->ext[0].name || strcmp(into->ext[0].name, n.name) == 0) {
      dfail(k, line, "field 'into': view \"%s\" must have a run-time extent of its own (= ceil(%s / %d), "
            "e.g. \"f32[ntiles]\"), got [%s]", kn->into, n.name, kn->tile, extent_text(into->ext[0], a, sizeof a));
    }
    break;
  default:
    break;
  }
}

static void read_reduction(decl *k, ggi_kernel *kn, int has_strategy) {
  read_values(k, kn, kn->pattern == GG_PATTERN_REDUCE ? GGI_MAX_VALUES : 1);
  int infinite = 0;
  read_op(k, kn, &infinite);
  const ggi_param *into = read_into(k, kn);
  check_into_extent(k, kn, into);
  static const char *const acc_names[] = {"i32", "u32", "i64", "u64", "f32", "f64", NULL};
  int acc = opt_enum(k, "type", acc_names, -1);
  if (acc >= 0) kn->acc_type = (gg_dtype)acc;
  else if (into->dtype == GG_F16 || into->dtype == GG_BF16) kn->acc_type = GG_F32; /* half sums lose too much */
  else kn->acc_type = into->dtype;
  if (infinite && kn->acc_type != GG_F32 && kn->acc_type != GG_F64)
    dfail(k, field_line(k, "identity"), "field 'identity' is infinite, but the accumulator type %s is "
          "an integer: give a finite identity, or type = \"f32\" or \"f64\"", dtype_names[kn->acc_type]);
  if (!has_strategy) return;
  kn->strategy = (ggi_strategy)opt_enum(k, "strategy", strategy_names, GGI_STRAT_AUTO);
  kn->allow_cas = opt_bool(k, "allow_cas");
  int atomic = kn->strategy == GGI_STRAT_GLOBAL_ATOMIC || kn->strategy == GGI_STRAT_SHARED_ATOMIC;
  if (atomic && ggi_atomic_needs_cas(kn->op, kn->acc_type, into->dtype, kn->targets)) {
    if (!kn->allow_cas)
      dfail(k, field_line(k, "strategy"), "strategy \"%s\" with op \"%s\" on %s needs a compare-and-swap loop "
            "(the target has no such atomic): set strategy = \"warp_shuffle\" (or shared_tree, "
            "deterministic), or allow_cas = true",
            strategy_names[kn->strategy], kn->op == GGI_OP_CUSTOM ? "combine" : op_names[kn->op],
            dtype_names[into->dtype == GG_F16 || into->dtype == GG_BF16 ? into->dtype : kn->acc_type]);
    kn->spec.cas_emulation = 1;
  }
}

/* Names share one C scope in the generated function: params, run-time
 * extents, indices and scratch must all differ. */
static void check_scope(decl *k, ggi_kernel *kn) {
  for (int i = 0; i < kn->nextents; i++) {
    const ggi_param *p = find_param(kn, kn->extents[i]);
    if (p) dfail(k, p->line, "duplicate name \"%s\": it is both a parameter and an extent", p->name);
  }
  for (int r = 0; r < kn->rank; r++) {
    const ggi_param *p = find_param(kn, kn->index[r]);
    if (p) dfail(k, p->line, "duplicate name \"%s\": it is both a parameter and an index", p->name);
    for (int i = 0; i < kn->nextents; i++)
      if (strcmp(kn->extents[i], kn->index[r]) == 0)
        dfail(k, field_line(k, "range"), "duplicate name \"%s\": it is both an extent and an index", kn->index[r]);
  }
  for (int s = 0; s < kn->nscratch; s++) {
    const ggi_param *p = find_param(kn, kn->scratch[s].name);
    if (p) dfail(k, kn->scratch[s].line, "duplicate name \"%s\": it is both a parameter and a scratch view", p->name);
    for (int i = 0; i < kn->nextents; i++)
      if (strcmp(kn->extents[i], kn->scratch[s].name) == 0)
        dfail(k, kn->scratch[s].line, "duplicate name \"%s\": it is both an extent and a scratch view", kn->extents[i]);
  }
}

/* Where a name is declared in the kernel's scope (params, scratch,
 * extents, indices): its line, or 0 when nowhere. */
static int scope_line(decl *k, const ggi_kernel *kn, const char *name) {
  const ggi_param *p = find_param(kn, name);
  if (p) return p->line;
  for (int s = 0; s < kn->nscratch; s++)
    if (strcmp(kn->scratch[s].name, name) == 0) return kn->scratch[s].line;
  for (int i = 0; i < kn->nextents; i++)
    if (strcmp(kn->extents[i], name) == 0) return k->line;
  for (int r = 0; r < kn->rank; r++)
    if (kn->index[r] && strcmp(kn->index[r], name) == 0) return field_line(k, "index");
  return 0;
}

/* Around the body the generated code also declares, for every view V
 * (params and scratch), V_e0.. (its extents) and, for layout "stride",
 * V_s0.. (its strides); no declared name may be one of them. */
static void check_hidden(decl *k, const ggi_kernel *kn) {
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
            dfail(k, line, "name \"%s\" is taken: the generated code declares it for view \"%s\" (its %s "
                  "%d); rename it", h, v->name, stride ? "stride" : "extent", dim);
        }
    }
  }
}

/* Collect run-time extents: range (or league) first, then views in
 * parameter order.  A range name no view uses is most likely a typo. */
static void collect_extents(decl *k, ggi_kernel *kn) {
  int cap = 3 * kn->nparams + GGI_MAX_RANK + 1;
  kn->extents = xalloc(k->c, sizeof(char *) * (size_t)cap);
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
          int dd = x ? distance(x, n) : 99;
          if (dd < best && dd < (int)strlen(n)) best = dd, near = x, view = kn->params[i].name;
        }
      if (near)
        dfail(k, field_line(k, "range"), "range extent \"%s\" is not declared anywhere (did you "
              "mean \"%s\", an extent of view \"%s\"?): no view has it as an extent", n, near,
              view);
      dfail(k, field_line(k, "range"), "range extent \"%s\" is not declared anywhere: no view has it "
            "as an extent (write it in a view type, e.g. \"f32[%s]\", or use a number)", n, n);
    }
  }
}

static void read_team(decl *k, ggi_kernel *kn) {
  lua_State *L = k->c->L;
  int t = push_field(k, "league"), isint = 0;
  int line = field_line(k, "league");
  if (t == LUA_TNIL) dfail(k, k->line, "field 'league' is missing; pattern \"team\" needs league = number of teams (integer or extent name)");
  if (t == LUA_TSTRING) {
    kn->league.name = to_cstring(k, -1, line, "field 'league'");
    check_name(k, line, "league extent", kn->league.name);
  } else if (t == LUA_TNUMBER) {
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint || v <= 0) dfail(k, line, "field 'league' must be a positive integer or an extent name");
    if (v > GGI_MAX_STATIC)
      dfail(k, line, "field 'league' is %lld; a static league is at most " GGI_MAX_STATIC_TEXT " teams", (long long)v);
    kn->league.value = v;
  } else {
    dfail(k, line, "field 'league' must be an integer or an extent name, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  kn->team_size = opt_range(k, "team_size", 32, 1024, 32); /* 0: gpugen chooses */
  kn->scratch = read_params(k, "scratch", &kn->nscratch, 1);
  long long bytes = 0;
  for (int s = 0; s < kn->nscratch; s++) {
    ggi_param *p = &kn->scratch[s];
    long long n = dtype_bytes[p->dtype];
    if (p->kind != GG_PARAM_VIEW) dfail(k, p->line, "scratch \"%s\" must be a view type, e.g. \"f32[32][32]\"", p->name);
    for (int r = 0; r < p->rank; r++) {
      if (p->ext[r].name)
        dfail(k, p->line, "scratch \"%s\": extent \"%s\" must be a number (scratch memory is sized at compile time)",
              p->name, p->ext[r].name);
      if (p->ext[r].value > GGI_MAX_SCRATCH) n = GGI_MAX_SCRATCH + 1;
      else n *= p->ext[r].value;
      if (n > GGI_MAX_SCRATCH) break;
    }
    bytes += n;
    if (bytes > GGI_MAX_SCRATCH)
      dfail(k, p->line, "field 'scratch' needs more than %d bytes of shared memory per team", GGI_MAX_SCRATCH);
  }
}

static void read_body(decl *k, ggi_kernel *kn) {
  kn->body = opt_string(k, "body");
  kn->body_line = text_line(k, "body");
  if (!kn->body)
    dfail(k, k->line, "field 'body' is missing; pattern \"%s\" needs body = \"CUDA/HIP statements\"",
          pattern_names[kn->pattern]);
}

static void read_knobs(decl *k, ggi_kernel *kn) {
  kn->block = opt_range(k, "block", 32, 1024, 32);
  kn->items = opt_range(k, "items", 1, 32, 1);
  int64_t v;
  if (opt_int(k, "vector", &v)) {
    if (v != 1 && v != 2 && v != 4 && v != 8)
      dfail(k, field_line(k, "vector"), "field 'vector' must be one of 1|2|4|8, got %lld", (long long)v);
    kn->vector = (int)v;
    kn->vector_line = field_line(k, "vector");
  }
}

static void read_launch(decl *k, ggi_kernel *kn) {
  int explicit_launch = push_field(k, "launch") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  kn->launch = (gg_launch_mode)opt_enum(k, "launch", launch_names, GG_LAUNCH_CLASSIC);
  if (kn->strategy != GGI_STRAT_GRID_SYNC) return;
  /* a grid-wide barrier only works when every block is resident */
  if (explicit_launch && kn->launch != GG_LAUNCH_COOPERATIVE)
    dfail(k, field_line(k, "launch"), "strategy \"grid_sync\" needs launch = \"cooperative\" (a grid-wide barrier), got \"%s\"",
          launch_names[kn->launch]);
  kn->launch = GG_LAUNCH_COOPERATIVE;
}

static void convert_kernel(decl *k, ggi_kernel *kn, unsigned targets) {
  char buf[256];
  kn->targets = targets;
  int pt = opt_enum(k, "pattern", pattern_names, -1);
  if (pt < 0) dfail(k, k->line, "field 'pattern' is missing; pattern must be one of %s", join(pattern_names, buf, sizeof buf));
  kn->pattern = (gg_pattern)pt;
  snprintf(buf, sizeof buf, "pattern \"%s\"", pattern_names[pt]);
  check_fields(k, k->t, pattern_fields[pt], kernel_fields, buf);

  kn->params = read_params(k, "params", &kn->nparams, 0);
  if (kn->pattern == GG_PATTERN_TEAM) {
    read_team(k, kn);
  } else {
    read_range(k, kn);
    read_index(k, kn);
    read_knobs(k, kn);
    if (kn->pattern != GG_PATTERN_FOR && kn->rank != 1)
      dfail(k, field_line(k, "range"), "pattern \"%s\" works on a 1-D range, got rank %d", pattern_names[pt], kn->rank);
  }
  collect_extents(k, kn);
  check_scope(k, kn);
  check_hidden(k, kn);

  switch (kn->pattern) {
  case GG_PATTERN_FRAME: /* declared with frame "name" { ... }, never a kernel's pattern */
    break;
  case GG_PATTERN_FOR:
  case GG_PATTERN_TEAM:
    read_body(k, kn);
    break;
  case GG_PATTERN_TILE_REDUCE: {
    int64_t t;
    if (!opt_int(k, "tile", &t)) dfail(k, k->line, "field 'tile' is missing; give elements per tile, 2..1024");
    if (t < 2 || t > 1024) dfail(k, field_line(k, "tile"), "field 'tile' must be 2..1024, got %lld", (long long)t);
    kn->tile = (int)t;
    read_reduction(k, kn, 0);
    break;
  }
  case GG_PATTERN_REDUCE:
    read_reduction(k, kn, 1);
    break;
  case GG_PATTERN_SCAN:
    kn->scan_kind = (ggi_scan_kind)opt_enum(k, "kind", scan_names, GGI_SCAN_INCLUSIVE);
    read_reduction(k, kn, 0);
    break;
  }
  read_launch(k, kn);
  char why[600];
  int at;
  if (ggi_body_check(kn, &at, why, sizeof why)) dfail(k, at, "%s", why);
}

/* ------------------------------------------------------------------ */
/* persistent kernels and the module                                   */

static int find_kernel(const ggi_module *m, const char *name) {
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, name) == 0) return i;
  return -1;
}

/* ------------------------------------------------------------------ */
/* frames: a chain of stages, each a kernel with bound arguments       */

static const char *const frame_fields[] = {"params", "stages", NULL};

static int is_writer(gg_access a) { return a != GG_ACCESS_IN; }
static int is_reader(gg_access a) { return a == GG_ACCESS_IN || a == GG_ACCESS_INOUT; }

/* Which frame extent (or constant) kernel extent `name` of stage st is. */
static ggi_extent *stage_extent(const ggi_kernel *kn, ggi_stage *st, const char *name) {
  for (int j = 0; j < kn->nextents; j++)
    if (strcmp(kn->extents[j], name) == 0) return &st->ext[j];
  return NULL;
}

/* Kernel view kp bound to frame view fp: same element type, rank and
 * layout; each kernel extent is one frame extent (a name maps the same
 * way in every view of the stage), a static extent equals the frame's. */
static void match_view(decl *k, int line, const ggi_kernel *kn, ggi_stage *st, const ggi_param *kp,
                       const ggi_param *fp, int *set) {
  char a[64], b[64];
  if (kp->dtype != fp->dtype || kp->rank != fp->rank || kp->layout != fp->layout)
    dfail(k, line, "stage \"%s\": \"%s\" is %s[...] (rank %d, layout %s) but frame parameter \"%s\" is "
          "%s[...] (rank %d, layout %s); a view binds to a frame view of the same element type, rank and layout",
          kn->name, kp->name, dtype_names[kp->dtype], kp->rank, layout_names[kp->layout], fp->name,
          dtype_names[fp->dtype], fp->rank, layout_names[fp->layout]);
  for (int r = 0; r < kp->rank; r++) {
    ggi_extent ke = kp->ext[r], fe = fp->ext[r];
    if (!ke.name) {
      if (fe.name || fe.value != ke.value)
        dfail(k, line, "stage \"%s\": extent %d of \"%s\" is %lld but frame parameter \"%s\" has %s; a "
              "static extent binds only to the same number", kn->name, r + 1, kp->name, (long long)ke.value,
              fp->name, extent_text(fe, b, sizeof b));
      continue;
    }
    ggi_extent *x = stage_extent(kn, st, ke.name);
    int j = (int)(x - st->ext);
    if (set[j] && !same_extent(*x, fe))
      dfail(k, line, "stage \"%s\": extent \"%s\" of kernel \"%s\" would be both %s and %s of the frame "
            "(\"%s\" is bound to \"%s\"); every view of a stage must agree on it", kn->name, ke.name, kn->name,
            extent_text(*x, a, sizeof a), extent_text(fe, b, sizeof b), kp->name, fp->name);
    *x = fe;
    set[j] = 1;
  }
}

/* A number bound to a kernel scalar, as a C literal of the scalar's type. */
static const char *scalar_constant(decl *k, int line, const ggi_kernel *kn, const ggi_param *kp) {
  lua_State *L = k->c->L;
  char buf[64];
  int isint = 0;
  lua_Integer iv = lua_tointegerx(L, -1, &isint);
  int is_float = kp->dtype == GG_F32 || kp->dtype == GG_F64 || kp->dtype == GG_F16 || kp->dtype == GG_BF16;
  if (is_float) {
    double v = lua_tonumber(L, -1);
    if (v != v || v - v != 0)
      dfail(k, line, "stage \"%s\": \"%s\" = %g is not a finite number", kn->name, kp->name, v);
    snprintf(buf, sizeof buf, "%.17g", v);
  } else {
    if (!isint) dfail(k, line, "stage \"%s\": \"%s\" is %s; bind it to an integer, not a fractional number",
                      kn->name, kp->name, dtype_names[kp->dtype]);
    int ok = kp->dtype == GG_I32 ? iv >= INT32_MIN && iv <= INT32_MAX
           : kp->dtype == GG_U32 ? iv >= 0 && iv <= (lua_Integer)UINT32_MAX
           : kp->dtype == GG_U64 ? iv >= 0 : 1;
    if (!ok) dfail(k, line, "stage \"%s\": \"%s\" = %lld does not fit in %s", kn->name, kp->name,
                   (long long)iv, dtype_names[kp->dtype]);
    snprintf(buf, sizeof buf, "%lld%s", (long long)iv, kp->dtype == GG_U32 || kp->dtype == GG_U64 ? "u" : "");
  }
  return xstrdup(k->c, buf);
}

/* One { "kernel", param = "frame param" | number, extent = ..., ... } entry
 * at the top of the stack.  A kernel parameter not named in the entry binds
 * to the frame parameter of the same name. */
static void read_stage(decl *k, int idx, size_t *pos, int stages_line, const ggi_module *m, ggi_kernel *fr,
                       ggi_stage *st) {
  lua_State *L = k->c->L;
  int e = lua_gettop(L);
  if (lua_type(L, e) != LUA_TTABLE)
    dfail(k, stages_line, "stages[%d] must be a table { \"kernel\", param = \"frame param\", ... }, got %s", idx,
          luaL_typename(L, e));
  if (lua_rawgeti(L, e, 1) != LUA_TSTRING)
    dfail(k, stages_line, "stages[%d] must start with the name of a kernel, as in { \"scale\", x = \"x\" }", idx);
  const char *name = to_cstring(k, -1, stages_line, "a stage's kernel name");
  lua_pop(L, 1);
  size_t at = quoted_pos(k->c, *pos, k->end, name);
  int line = at == (size_t)-1 ? stages_line : line_of(k->c, at);
  if (at != (size_t)-1) *pos = at + 1;
  st->kernel = name;
  st->line = line;
  st->kernel_index = find_kernel(m, name);
  if (st->kernel_index < 0 || st->kernel_index >= m->nkernels)
    dfail(k, line, "stage %d: \"%s\" is not a kernel declared in this file (a stage is a kernel: "
          "not a persistent kernel, not a frame declared after this one)", idx, name);
  const ggi_kernel *kn = &m->kernels[st->kernel_index];
  if (kn->pattern == GG_PATTERN_FRAME)
    dfail(k, line, "stage %d: \"%s\" is a frame; a stage is a kernel (frames do not nest)", idx, name);
  if (kn->launch == GG_LAUNCH_COOPERATIVE)
    dfail(k, line, "stage %d: kernel \"%s\" is cooperative (launch = \"cooperative\" or strategy \"grid_sync\"); "
          "a frame runs inside a persistent kernel: give it launch = \"classic\" and another strategy", idx, name);
  st->bind = xalloc(k->c, sizeof(int) * (size_t)(kn->nparams + 1));
  st->constant = xalloc(k->c, sizeof(char *) * (size_t)(kn->nparams + 1));
  st->ext = xalloc(k->c, sizeof(ggi_extent) * (size_t)(kn->nextents + 1));
  int *set = xalloc(k->c, sizeof(int) * (size_t)(kn->nextents + 1));
  memset(set, 0, sizeof(int) * (size_t)(kn->nextents + 1));
  /* every key: [1], a kernel parameter or a kernel extent */
  lua_pushnil(L);
  while (lua_next(L, e)) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) == LUA_TNUMBER && isint && i == 1) continue;
    if (lua_type(L, -1) != LUA_TSTRING)
      dfail(k, line, "stage \"%s\": entries after the kernel name are written param = \"frame param\"", name);
    const char *key = lua_tostring(L, -1);
    if (find_param(kn, key)) continue;
    int is_ext = 0;
    for (int j = 0; j < kn->nextents; j++) is_ext |= strcmp(kn->extents[j], key) == 0;
    if (is_ext) continue;
    const char **names = xalloc(k->c, sizeof(char *) * (size_t)(kn->nparams + kn->nextents + 1));
    int nn = 0;
    for (int j = 0; j < kn->nparams; j++) names[nn++] = kn->params[j].name;
    for (int j = 0; j < kn->nextents; j++) names[nn++] = kn->extents[j];
    names[nn] = NULL;
    const char *near = closest(names, key);
    char buf[512];
    if (near) dfail(k, line, "stage \"%s\": kernel \"%s\" has no parameter or extent '%s' (did you mean '%s'?)",
                    name, name, key, near);
    dfail(k, line, "stage \"%s\": kernel \"%s\" has no parameter or extent '%s'; it has: %s", name, name, key,
          join(names, buf, sizeof buf));
  }
  /* parameters */
  for (int j = 0; j < kn->nparams; j++) {
    const ggi_param *kp = &kn->params[j];
    lua_pushstring(L, kp->name);
    int t = lua_rawget(L, e);
    st->bind[j] = -1;
    st->constant[j] = NULL;
    const char *target = kp->name;
    if (t == LUA_TNUMBER) {
      if (kp->kind == GG_PARAM_VIEW)
        dfail(k, line, "stage \"%s\": \"%s\" is a view; bind it to a frame view by name, not to a number", name,
              kp->name);
      st->constant[j] = scalar_constant(k, line, kn, kp);
      lua_pop(L, 1);
      continue;
    }
    if (t == LUA_TSTRING) target = to_cstring(k, -1, line, "a binding");
    else if (t != LUA_TNIL)
      dfail(k, line, "stage \"%s\": \"%s\" must be bound to a frame parameter's name or a number, got %s", name,
            kp->name, lua_typename(L, t));
    lua_pop(L, 1);
    const ggi_param *fp = find_param(fr, target);
    if (!fp) {
      if (t == LUA_TNIL)
        dfail(k, line, "stage \"%s\": parameter \"%s\" is not bound: write %s = \"a frame parameter\"%s, or "
              "declare a frame parameter \"%s\"", name, kp->name, kp->name,
              kp->kind == GG_PARAM_SCALAR ? " or a number" : "", kp->name);
      dfail(k, line, "stage \"%s\": \"%s\" = \"%s\": the frame has no parameter \"%s\"", name, kp->name, target,
            target);
    }
    st->bind[j] = (int)(fp - fr->params);
    if (kp->kind != fp->kind)
      dfail(k, line, "stage \"%s\": \"%s\" is a %s but frame parameter \"%s\" is a %s; bind a scalar to a "
            "scalar and a view to a view", name, kp->name, kp->kind == GG_PARAM_VIEW ? "view" : "scalar",
            fp->name, fp->kind == GG_PARAM_VIEW ? "view" : "scalar");
    if (kp->kind == GG_PARAM_SCALAR) {
      if (kp->dtype != fp->dtype)
        dfail(k, line, "stage \"%s\": \"%s\" is %s but frame parameter \"%s\" is %s; the types must be the same",
              name, kp->name, dtype_names[kp->dtype], fp->name, dtype_names[fp->dtype]);
      continue;
    }
    match_view(k, line, kn, st, kp, fp, set);
    /* views of one kernel are __restrict__: two bound to one frame view
       may overlap only when neither is written */
    for (int q = 0; q < j; q++)
      if (st->bind[q] == st->bind[j] && kn->params[q].kind == GG_PARAM_VIEW &&
          (is_writer(kp->access) || is_writer(kn->params[q].access)))
        dfail(k, line, "stage \"%s\": views \"%s\" and \"%s\" are both bound to frame parameter \"%s\" and one "
              "is written; views of one kernel must not overlap (they are __restrict__)", name,
              kn->params[q].name, kp->name, fp->name);
  }
  /* extents given by name (a team's league, or to restate one) */
  for (int j = 0; j < kn->nextents; j++) {
    lua_pushstring(L, kn->extents[j]);
    int t = lua_rawget(L, e), isint = 0;
    ggi_extent x = {NULL, 0};
    if (t == LUA_TSTRING) {
      x.name = to_cstring(k, -1, line, "an extent binding");
      int known = 0;
      for (int q = 0; q < fr->nextents; q++) known |= strcmp(fr->extents[q], x.name) == 0;
      if (!known)
        dfail(k, line, "stage \"%s\": extent \"%s\" = \"%s\": the frame has no extent \"%s\" (its extents are "
              "the names in its views' types)", name, kn->extents[j], x.name, x.name);
    } else if (t == LUA_TNUMBER) {
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint || v <= 0)
        dfail(k, line, "stage \"%s\": extent \"%s\" must be bound to a positive integer or a frame extent", name,
              kn->extents[j]);
      x.value = v;
    } else if (t != LUA_TNIL) {
      dfail(k, line, "stage \"%s\": extent \"%s\" must be bound to a frame extent's name or an integer, got %s",
            name, kn->extents[j], lua_typename(L, t));
    }
    lua_pop(L, 1);
    if (t == LUA_TNIL) {
      if (!set[j])
        dfail(k, line, "stage \"%s\": extent \"%s\" of kernel \"%s\" is not bound: no view bound to the frame "
              "gives it; write %s = \"a frame extent\" or a number", name, kn->extents[j], name, kn->extents[j]);
      continue;
    }
    char a[64], b[64];
    if (set[j] && !same_extent(st->ext[j], x))
      dfail(k, line, "stage \"%s\": extent \"%s\" is bound to %s but its views make it %s", name, kn->extents[j],
            extent_text(x, a, sizeof a), extent_text(st->ext[j], b, sizeof b));
    st->ext[j] = x;
    set[j] = 1;
  }
}

/* The frame's params read like a kernel's; a view's access, when left
 * out, is what the stages do with it; when written, it must allow that. */
static void frame_access(decl *k, ggi_kernel *fr, int params_line) {
  lua_State *L = k->c->L;
  ggi_frame *f = fr->frame;
  int t = push_field(k, "params");
  for (int i = 0; i < fr->nparams; i++) {
    ggi_param *fp = &fr->params[i];
    int reads = 0, writes = 0, atomics = 0, plain = 0, used = 0;
    for (int s = 0; s < f->nstages; s++) {
      const ggi_kernel *kn = &k->c->m->kernels[f->stages[s].kernel_index];
      for (int j = 0; j < kn->nparams; j++) {
        if (f->stages[s].bind[j] != i) continue;
        used = 1;
        gg_access a = kn->params[j].access;
        reads |= is_reader(a);
        writes |= is_writer(a);
        atomics |= a == GG_ACCESS_ATOMIC;
        plain |= a == GG_ACCESS_OUT || a == GG_ACCESS_INOUT;
      }
    }
    if (!used)
      dfail(k, fp->line, "frame parameter \"%s\" is bound by no stage; remove it or bind it", fp->name);
    if (fp->kind != GG_PARAM_VIEW) continue;
    int written = 0;
    if (t == LUA_TTABLE) {
      lua_rawgeti(L, -1, i + 1);
      lua_pushliteral(L, "access");
      written = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 2);
    }
    gg_access derived = writes && !reads && !plain ? GG_ACCESS_ATOMIC
                      : writes && reads ? GG_ACCESS_INOUT
                      : writes ? GG_ACCESS_OUT : GG_ACCESS_IN;
    if (atomics && plain) derived = GG_ACCESS_INOUT;
    if (!written) fp->access = derived;
    else if (fp->access == GG_ACCESS_IN && writes)
      dfail(k, fp->line, "frame parameter \"%s\" is declared access = \"in\" but a stage writes it; write "
            "access = \"%s\" or leave access out (it is then what the stages do)", fp->name,
            access_names[derived]);
  }
  lua_pop(L, 1);
  (void)params_line;
}

static void convert_frame(decl *k, ggi_kernel *fr, const ggi_module *m) {
  lua_State *L = k->c->L;
  check_fields(k, k->t, frame_fields, NULL, "");
  fr->targets = m->targets;
  fr->pattern = GG_PATTERN_FRAME;
  fr->launch = GG_LAUNCH_PERSISTENT;
  fr->frame = xalloc(k->c, sizeof *fr->frame);
  memset(fr->frame, 0, sizeof *fr->frame);
  fr->frame->kernels = m->kernels;
  fr->params = read_params(k, "params", &fr->nparams, 0);
  int params_line = field_line(k, "params");
  collect_extents(k, fr);
  check_scope(k, fr);
  int t = push_field(k, "stages");
  int line = field_line(k, "stages");
  if (t == LUA_TNIL)
    dfail(k, k->line, "field 'stages' is missing; list the kernels this frame runs in order, e.g. "
          "stages = { { \"scale\", x = \"x\" }, { \"energy\" } }");
  int n = list_len(k, "stages", line);
  if (n < 1 || n > GGI_MAX_STAGES)
    dfail(k, line, "field 'stages' must list 1 to %d stages, got %d", GGI_MAX_STAGES, n);
  size_t pos = line_pos(k->c, line);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    read_stage(k, i + 1, &pos, line, m, fr, &fr->frame->stages[i]);
    lua_pop(L, 1);
    fr->frame->nstages = i + 1;
  }
  lua_pop(L, 1);
  frame_access(k, fr, params_line);
}


static void read_buffering(decl *k, ggi_persistent *p) {
  lua_State *L = k->c->L;
  int t = push_field(k, "buffering");
  int line = field_line(k, "buffering");
  p->buffering = 1;
  if (t == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    if (strcmp(s, "single") == 0) p->buffering = 1;
    else if (strcmp(s, "double") == 0) p->buffering = 2;
    else dfail(k, line, "field 'buffering' must be \"single\", \"double\" or { ring = N } (N 2..64), got \"%s\"", s);
  } else if (t == LUA_TTABLE) {
    decl r = *k;
    r.t = lua_gettop(L);
    r.line = r.end = line;
    snprintf(r.what, sizeof r.what, "%.90s: buffering", k->what);
    static const char *const ring_fields[] = {"ring", NULL};
    check_fields(&r, r.t, ring_fields, NULL, "");
    int64_t n;
    if (!opt_int(&r, "ring", &n)) dfail(k, line, "field 'buffering' must be { ring = N } with N 2..64");
    if (n < 2 || n > 64) dfail(k, line, "field 'buffering': ring size must be 2..64, got %lld", (long long)n);
    p->buffering = (int)n;
  } else if (t != LUA_TNIL) {
    dfail(k, line, "field 'buffering' must be \"single\", \"double\" or { ring = N }, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
}

static void read_commands(decl *k, ggi_persistent *p, const ggi_module *m) {
  lua_State *L = k->c->L;
  int t = push_field(k, "commands");
  int line = field_line(k, "commands");
  if (t == LUA_TNIL) dfail(k, k->line, "field 'commands' is missing; list the kernels this loop runs, e.g. { \"sum\" }");
  int n = list_len(k, "commands", line);
  if (n < 1 || n > GGI_MAX_COMMANDS) dfail(k, line, "field 'commands' must list 1 to %d kernels, got %d", GGI_MAX_COMMANDS, n);
  for (int i = 0; i < n; i++) {
    if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) dfail(k, line, "commands[%d] must be a kernel name", i + 1);
    const char *name = to_cstring(k, -1, line, "commands");
    lua_pop(L, 1);
    int ki = find_kernel(m, name);
    if (ki < 0) dfail(k, line, "command \"%s\" is not a kernel declared in this file", name);
    if (m->kernels[ki].launch == GG_LAUNCH_COOPERATIVE)
      dfail(k, line, "command \"%s\" is a cooperative kernel (launch = \"cooperative\" or strategy \"grid_sync\"); "
            "a persistent loop cannot run it: give it launch = \"classic\" and another strategy", name);
    for (int j = 0; j < i; j++)
      if (strcmp(p->commands[j], name) == 0) dfail(k, line, "duplicate command \"%s\"", name);
    p->commands[i] = name;
    p->command_index[i] = ki;
  }
  lua_pop(L, 1);
  p->ncommands = n;
}

static void convert_persistent(decl *k, ggi_persistent *p, const ggi_module *m) {
  check_fields(k, k->t, persistent_fields, NULL, "");
  p->targets = m->targets;
  p->layout = (gg_persistent_layout)opt_enum(k, "layout", playout_names, GG_PLAYOUT_ONE_BLOCK);
  read_commands(k, p, m);
  read_buffering(k, p);
  p->block = opt_range(k, "block", 32, 1024, 32);
  int many = p->layout == GG_PLAYOUT_MANY_BLOCKS || p->layout == GG_PLAYOUT_HYBRID;
  int groups = p->layout == GG_PLAYOUT_THREAD_GROUPS || p->layout == GG_PLAYOUT_HYBRID;
  int64_t v;
  if (opt_int(k, "blocks", &v)) {
    if (!many) dfail(k, field_line(k, "blocks"), "field 'blocks' applies to layout \"many_blocks\" or \"hybrid\", not \"%s\"", playout_names[p->layout]);
    if (v < 1 || v > 4096) dfail(k, field_line(k, "blocks"), "field 'blocks' must be 1..4096, got %lld", (long long)v);
    p->blocks = (int)v;
  }
  if (opt_int(k, "groups", &v)) {
    if (!groups) dfail(k, field_line(k, "groups"), "field 'groups' applies to layout \"thread_groups\" or \"hybrid\", not \"%s\"", playout_names[p->layout]);
    /* each group syncs on a named barrier of its own: ids 1..15 */
    if (v < 1 || v > 15) dfail(k, field_line(k, "groups"), "field 'groups' must be 1..15 (one named barrier each), got %lld", (long long)v);
    if (p->block && (p->block % v || (p->block / v) % 32))
      dfail(k, field_line(k, "groups"), "field 'groups': block %d does not split into %lld groups of whole warps", p->block, (long long)v);
    p->groups = (int)v;
  }
}

static unsigned read_targets(decl *k) {
  lua_State *L = k->c->L;
  int t = push_field(k, "targets");
  int line = field_line(k, "targets");
  unsigned set = 0;
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return GGI_TARGET_CUDA | GGI_TARGET_HIP;
  }
  int n = list_len(k, "targets", line);
  if (n < 1) dfail(k, line, "field 'targets' must list \"cuda\", \"hip\" or both");
  for (int i = 0; i < n; i++) {
    int ti = lua_rawgeti(L, -1, i + 1);
    int which = ti == LUA_TSTRING ? find_name(target_names, lua_tostring(L, -1)) : -1;
    if (which < 0) dfail(k, line, "targets[%d] must be one of cuda|hip, got %s%s%s", i + 1, ti == LUA_TSTRING ? "\"" : "",
                         ti == LUA_TSTRING ? lua_tostring(L, -1) : lua_typename(L, ti), ti == LUA_TSTRING ? "\"" : "");
    if (set & (1u << which)) dfail(k, line, "duplicate target \"%s\"", target_names[which]);
    set |= 1u << which;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return set;
}

/* The module name defaults to the file's basename without its extension. */
static const char *default_name(ctx *c) {
  const char *base = strrchr(c->path, '/');
  base = base ? base + 1 : c->path;
  char buf[128];
  snprintf(buf, sizeof buf, "%s", base);
  char *dot = strchr(buf, '.');
  if (dot) *dot = 0;
  return xstrdup(c, buf);
}

static void convert_module(ctx *c, decl *k, ggi_module *m) {
  m->targets = GGI_TARGET_CUDA | GGI_TARGET_HIP;
  m->name = NULL;
  if (k) {
    check_fields(k, k->t, module_fields, NULL, "");
    m->name = opt_string(k, "name");
    m->targets = read_targets(k);
    const char *why = m->name ? ggi_module_name_problem(m->name) : NULL;
    if (why) dfail(k, field_line(k, "name"), "module name \"%s\" %s", m->name, why);
  }
  if (!m->name) {
    m->name = default_name(c);
    const char *why = ggi_module_name_problem(m->name);
    if (why) fail(c, 1, "module name \"%s\" (from the file name) %s: set module { name = \"...\" }", m->name, why);
  }
}

/* ------------------------------------------------------------------ */
/* phase 2: convert what the file declared                             */

static const char decls_key = 0; /* registry key (its address) of the declaration list */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Fills a decl from entry i of the list (left on the stack at its table). */
static const char *open_decl(ctx *c, int list, int i, decl *k) {
  lua_State *L = c->L;
  lua_rawgeti(L, list, i); /* entry = { kind, name, line, table } */
  int e = lua_gettop(L);
  lua_rawgeti(L, e, 1);
  const char *kind = lua_tostring(L, -1);
  lua_rawgeti(L, e, 2);
  const char *name = lua_tostring(L, -1);
  lua_rawgeti(L, e, 3);
  int line = (int)lua_tointeger(L, -1);
  int has = lua_rawgeti(L, e, 4) == LUA_TTABLE;
  ggi_sandbox_charge(&c->sb, 64, line);
  k->c = c;
  k->line = line;
  k->end = span_end(c, line);
  k->t = lua_gettop(L);
  k->name = name;
  if (name) snprintf(k->what, sizeof k->what, "%s \"%s\"", kind, name);
  else snprintf(k->what, sizeof k->what, "%s", kind);
  if (!has) fail(c, line, "%s has no table: write %s \"%s\" { ... }", k->what, kind, name ? name : "");
  return kind; /* stays valid: the entry is on the stack */
}

static void check_unique(ctx *c, const char *name, int line, const char *const *seen, const int *lines, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(seen[i], name) == 0) fail(c, line, "duplicate name \"%s\" (first declared at line %d)", name, lines[i]);
}

static int convert(lua_State *L) {
  ctx *c = ctx_of(L);
  ggi_module *m = c->m;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
  int list = lua_gettop(L);
  int n = (int)lua_rawlen(L, list);
  index_lines(c);
  c->decl_lines = xalloc(c, sizeof(int) * (size_t)(n + 1));
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    lua_rawgeti(L, -1, 3);
    c->decl_lines[c->ndecl++] = (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
  }
  qsort(c->decl_lines, (size_t)c->ndecl, sizeof(int), cmp_int);

  int nk = 0, np = 0, top = lua_gettop(L);
  decl k;
  int have_module = 0, module_line = 1;
  for (int i = 1; i <= n; i++) { /* module first: its targets apply to all */
    const char *kind = open_decl(c, list, i, &k);
    if (strcmp(kind, "module") == 0) {
      convert_module(c, &k, m);
      have_module = 1;
      module_line = k.line;
    } else if (strcmp(kind, "kernel") == 0 || strcmp(kind, "frame") == 0) nk++;
    else np++;
    lua_settop(L, top);
  }
  if (!have_module) convert_module(c, NULL, m);
  if (nk + np == 0) fail(c, 0, "no kernel declared: write kernel \"name\" { pattern = ..., ... }");

  m->kernels = xalloc(c, sizeof *m->kernels * (size_t)(nk ? nk : 1));
  m->persistent = xalloc(c, sizeof *m->persistent * (size_t)(np ? np : 1));
  const char **seen = xalloc(c, sizeof(char *) * (size_t)(nk + np));
  int *seen_line = xalloc(c, sizeof(int) * (size_t)(nk + np));
  /* kernels, then the frames that chain them, then the persistent loops
     that run both */
  for (int pass = 0; pass < 3; pass++) {
    for (int i = 1; i <= n; i++) {
      const char *kind = open_decl(c, list, i, &k);
      if (pass == 0 && strcmp(kind, "kernel") == 0) {
        ggi_kernel *kn = &m->kernels[m->nkernels];
        kn->name = xstrdup(c, k.name);
        kn->line = k.line;
        check_unique(c, kn->name, k.line, seen, seen_line, m->nkernels);
        seen[m->nkernels] = kn->name;
        seen_line[m->nkernels] = k.line;
        m->nkernels++;
        convert_kernel(&k, kn, m->targets);
      } else if (pass == 1 && strcmp(kind, "frame") == 0) {
        ggi_kernel *fr = &m->kernels[m->nkernels];
        fr->name = xstrdup(c, k.name);
        fr->line = k.line;
        check_unique(c, fr->name, k.line, seen, seen_line, m->nkernels);
        seen[m->nkernels] = fr->name;
        seen_line[m->nkernels] = k.line;
        convert_frame(&k, fr, m);
        m->nkernels++;
      } else if (pass == 2 && strcmp(kind, "persistent") == 0) {
        ggi_persistent *p = &m->persistent[m->npersistent];
        p->name = xstrdup(c, k.name);
        p->line = k.line;
        int ns = m->nkernels + m->npersistent;
        check_unique(c, p->name, k.line, seen, seen_line, ns);
        seen[ns] = p->name;
        seen_line[ns] = k.line;
        m->npersistent++;
        convert_persistent(&k, p, m);
      }
      lua_settop(L, top);
    }
  }
  if (ggi_check_generated_names(m, module_line, c->d) != 0) {
    c->sb.failed = 1;
    lua_pushliteral(L, "validation error");
    lua_error(L);
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* phase 1: the sandbox and the three declaration functions            */

/* kernel "name" / persistent "name" / module: append { kind, name, line }
 * to the list now (so a forgotten table is caught), fill [4] when the
 * table comes. */
static int take_table(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1)); /* the entry */
  if (lua_type(L, 1) != LUA_TTABLE) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    return luaL_error(L, "%s \"%s\": expected a table { ... } after the name, got %s",
                      lua_tostring(L, -2), lua_tostring(L, -1), luaL_typename(L, 1));
  }
  lua_rawgeti(L, -1, 4);
  if (!lua_isnil(L, -1)) return luaL_error(L, "this declaration already has its table");
  lua_pop(L, 1);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, 4);
  return 0;
}

static int caller_line(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline > 0) return ar.currentline;
  return 0;
}

static void push_entry(lua_State *L, const char *kind, int name_arg) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
  if (lua_rawlen(L, -1) >= GGI_MAX_DECLS)
    luaL_error(L, "more than %d declarations in one file", GGI_MAX_DECLS);
  lua_createtable(L, 4, 0);
  lua_pushstring(L, kind);
  lua_rawseti(L, -2, 1);
  if (name_arg) {
    lua_pushvalue(L, name_arg);
    lua_rawseti(L, -2, 2);
  }
  lua_pushinteger(L, caller_line(L));
  lua_rawseti(L, -2, 3);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, (lua_Integer)lua_rawlen(L, -3) + 1);
}

static int declare(lua_State *L, const char *kind) {
  if (lua_type(L, 1) != LUA_TSTRING)
    return luaL_error(L, "%s: expected a name, as in %s \"name\" { ... }, got %s", kind, kind, luaL_typename(L, 1));
  size_t n;
  const char *s = lua_tolstring(L, 1, &n);
  const char *why = strlen(s) != n ? "contains a NUL byte" : ggi_name_problem(s);
  if (why) {
    char shown[200];
    ggi_clean(shown, sizeof shown, s);
    return luaL_error(L, "%s name \"%s\" %s", kind, shown, why);
  }
  push_entry(L, kind, 1);
  lua_pushcclosure(L, take_table, 1);
  return 1;
}

static int l_kernel(lua_State *L) { return declare(L, "kernel"); }
static int l_persistent(lua_State *L) { return declare(L, "persistent"); }
static int l_frame(lua_State *L) { return declare(L, "frame"); }

static int l_module(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
  int n = (int)lua_rawlen(L, -1);
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 3);
    if (strcmp(lua_tostring(L, -2), "module") == 0)
      return luaL_error(L, "module is declared twice (first at line %d)", (int)lua_tointeger(L, -1));
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  if (lua_type(L, 1) != LUA_TTABLE)
    return luaL_error(L, "module: expected a table, as in module { name = \"demo\" }, got %s", luaL_typename(L, 1));
  push_entry(L, "module", 0);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, 4);
  return 0;
}

static int read_file(ctx *c, char **out, size_t *len) {
  FILE *f = fopen(c->path, "rb");
  if (!f) {
    snprintf(c->d->msg, sizeof c->d->msg, "%s: cannot open: %s", c->path, strerror(errno));
    return -1;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap || n > GGI_MAX_FILE) break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) free(buf);
    buf = nb;
    cap *= 2;
  }
  int err = ferror(f) ? errno : 0;
  fclose(f);
  if (!buf || err || n > GGI_MAX_FILE) {
    snprintf(c->d->msg, sizeof c->d->msg, "%s: %s%s", c->path,
             !buf ? "out of memory" : err ? "cannot read: " : "file is larger than 16 MiB",
             buf && err ? strerror(err) : "");
    free(buf);
    return -1;
  }
  *out = buf;
  *len = n;
  return 0;
}

static int open_declarations(lua_State *L) {
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &decls_key);
  lua_register(L, "kernel", l_kernel);
  lua_register(L, "persistent", l_persistent);
  lua_register(L, "frame", l_frame);
  lua_register(L, "module", l_module);
  return 0;
}

int ggi_load(const char *path, const char *text, size_t len, ggi_module **out, ggi_diag *d) {
  return ggi_load_limited(path, text, len, 0, out, d);
}

int ggi_load_limited(const char *path, const char *text, size_t len, double seconds, ggi_module **out,
                     ggi_diag *d) {
  ctx c;
  memset(&c, 0, sizeof c);
  c.path = path ? path : "workload.lua";
  c.d = d;
  d->msg[0] = 0;
  *out = NULL;
  char *owned = NULL;
  if (!text) {
    if (read_file(&c, &owned, &len) != 0) return -1;
    text = owned;
  }
  c.text = text;
  c.len = len;
  c.m = ggi_module_new(c.path);
  int rc = -1;
  if (!c.m) {
    snprintf(d->msg, sizeof d->msg, "%s: out of memory", c.path);
  } else if (ggi_sandbox_open(&c.sb, c.path, seconds, d, &c) == 0) {
    c.L = c.sb.L;
    rc = ggi_sandbox_call(&c.sb, open_declarations);
    if (rc == 0) rc = ggi_sandbox_run(&c.sb, text, len);
    if (rc == 0) rc = ggi_sandbox_call(&c.sb, convert);
  }
  ggi_sandbox_close(&c.sb);
  free(owned);
  if (rc != 0) {
    ggi_module_free(c.m);
    return -1;
  }
  *out = c.m;
  return 0;
}
