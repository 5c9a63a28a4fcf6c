/*
 * loader.h - what the loader's files share (internal to load.c,
 * fields.c and the load_*.c readers).
 *
 * The loader converts the tables a workload file declared into IR.  A
 * mistake raises a Lua error after its message has been written
 * ("file:line: what is wrong and what is allowed"), so the readers are
 * _Noreturn on failure and the checks read top to bottom.
 */
#ifndef GGI_LOADER_H
#define GGI_LOADER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "ir.h"
#include "patterns.h"
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
#define GGI_MAX_HALO 65536 /* halo = h: at most this many indices either side */
#define GGI_MAX_STATIC_TEXT "2^48 (281474976710656)"

/* Everything one load needs; reached from Lua through the state's extra space. */
typedef struct ggi_load_ctx {
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
} ggi_load_ctx;

/* One declaration being converted: the Lua table at stack index t. */
typedef struct ggi_decl {
  ggi_load_ctx *c;
  char what[160];          /* `kernel "saxpy"`, for messages */
  const char *name;        /* the declared name (NULL for module) */
  int line, end;           /* span of lines where its fields are written */
  int t;
} ggi_decl;

/* ---- fields.c ---- */

/* The load's context, kept in the Lua state (ggi_sandbox_owner). */
ggi_load_ctx *ggi_load_ctx_of(lua_State *L);

/* Failing: write "file:line: [what: ]message" and unwind to the pcall. */
_Noreturn void ggi_load_fail(ggi_load_ctx *c, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void ggi_decl_fail(ggi_decl *k, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Arena allocations that fail the load when memory runs out. */
void *ggi_load_alloc(ggi_load_ctx *c, size_t n);
const char *ggi_load_strdup(ggi_load_ctx *c, const char *s);

/* Lines: the file's line starts, and where a declaration's field (or a
 * string value's text, or a quoted name) is written. */
void ggi_index_lines(ggi_load_ctx *c);
int ggi_line_of(const ggi_load_ctx *c, size_t pos);
size_t ggi_line_pos(const ggi_load_ctx *c, int line);
int ggi_span_end(const ggi_load_ctx *c, int line);
int ggi_field_line(ggi_decl *k, const char *field);
int ggi_text_line(ggi_decl *k, const char *field);
size_t ggi_quoted_pos(ggi_load_ctx *c, size_t pos, int to, const char *s);

/* The most entries a list field (params, stages, commands, ...) holds. */
#define GGI_LIST_MAX 1000

/* Raw field reads (no metamethod runs): push a field, or read one as a
 * string / integer / boolean / name of `names` / integer in lo..hi; a
 * field left out gives NULL, 0 or dflt.  A wrong type fails the load. */
int ggi_push_field(ggi_decl *k, const char *f);
const char *ggi_to_cstring(ggi_decl *k, int idx, int line, const char *what);
const char *ggi_opt_string(ggi_decl *k, const char *f);
int ggi_opt_int(ggi_decl *k, const char *f, int64_t *v);
/* What the number at idx is, when it is no 64-bit integer (messages). */
const char *ggi_non_integer_text(lua_State *L, int idx, char *buf, size_t n);
int ggi_opt_bool(ggi_decl *k, const char *f);
int ggi_opt_enum(ggi_decl *k, const char *f, const char *const *names, int dflt);
int ggi_opt_range(ggi_decl *k, const char *f, int lo, int hi, int multiple);
int ggi_list_len(ggi_decl *k, const char *f, int line);
/* A params (or scratch) list at stack index `list` written flat,
 * { "x", "f64[n]" }: 1 with d->msg = why and what to write instead (no
 * place: the caller knows the line), else 0. */
int ggi_flat_params(lua_State *L, int list, const char *field, ggi_diag *d);

/* Numbers of the workload as C literals, written one way everywhere: a
 * finite double as a floating literal that keeps -0.0's sign ("-0.0", not
 * the integer "-0"); an integer with `suffix` ("", "u"), the smallest i64
 * as an expression whose literal does not overflow.  buf: 64 bytes. */
void ggi_float_literal(double v, char *buf, size_t size);
/* A finite number written for a float of type t (f16, bf16, f32; f64
 * holds every finite double): 0 when t holds it, else GGI_FLOAT_TOO_BIG
 * or GGI_FLOAT_TOO_SMALL with what is wrong, in words, in why ("does not
 * fit in f32 (its largest value is ...)", "would be 0 in f32 (its
 * smallest nonzero value is ...)").  t rounds to
 * nearest: from halfway past its largest finite value on the literal
 * would be infinity, at or under half its smallest subnormal 0. */
enum { GGI_FLOAT_FITS, GGI_FLOAT_TOO_BIG, GGI_FLOAT_TOO_SMALL };
int ggi_float_misfit(double v, gg_dtype t, char *why, size_t size);
void ggi_int_literal(long long v, const char *suffix, char *buf, size_t size);

/* Names: index in a NULL-terminated table (-1), the table as "a|b|c",
 * the closest entry for "did you mean" (NULL when none is close), unknown
 * fields, and the name rules of names.h. */
int ggi_find_name(const char *const *names, const char *s);
const char *ggi_join_names(const char *const *names, char *buf, size_t n);
int ggi_edit_distance(const char *a, const char *b);
const char *ggi_closest(const char *const *names, const char *s);
void ggi_check_fields(ggi_decl *k, int t, const char *const *allowed, const char *const *known,
                      const char *why);
void ggi_check_name(ggi_decl *k, int line, const char *what, const char *s);

/* ---- load_params.c ---- */

/* Parts every kernel reader (and a frame's) shares: params, extents, one
 * C scope. */
ggi_param *ggi_read_params(ggi_decl *k, const char *f, int *count, int scratch);
const ggi_param *ggi_find_param(const ggi_kernel *kn, const char *name);
int ggi_same_extent(ggi_extent a, ggi_extent b);
const char *ggi_extent_text(ggi_extent e, char *buf, size_t n);
/* A view's extents as written, "[n][256][2]", and its type, "f32[n][256][2]"
 * (each truncated to n bytes). */
const char *ggi_extents_text(const ggi_param *p, char *buf, size_t n);
const char *ggi_view_text(const ggi_param *p, char *buf, size_t n);
void ggi_collect_extents(ggi_decl *k, ggi_kernel *kn);
void ggi_check_scope(ggi_decl *k, ggi_kernel *kn);
/* unit times the static ones of ext[0..n), each at most GGI_MAX_STATIC;
 * fails at line when the product passes GGI_MAX_STATIC. */
int64_t ggi_static_product(ggi_decl *k, int line, const ggi_extent *ext, int n, int64_t unit,
                           const char *what);

/* ---- load_reduction.c ---- */

/* The reduction fields of reduce (value, op / combine / identity, into,
 * type, strategy, allow_cas), scan (the same but strategy, and kind) and
 * tile_reduce (the same as scan, and tile); the pattern hooks of
 * load_kernel.c call them before reading the launch. */
void ggi_read_reduce_fields(ggi_decl *k, ggi_kernel *kn);
void ggi_read_scan_fields(ggi_decl *k, ggi_kernel *kn);
void ggi_read_tile_fields(ggi_decl *k, ggi_kernel *kn);
/* A kernel whose threads call contribute() (team, fft or gemm with post): into,
 * op / combine / identity, type (not an fft's), strategy. */
void ggi_read_contributions(ggi_decl *k, ggi_kernel *kn);
/* Statements run on each element of a kernel's output (fft post and
 * between, gemm post): what they may not name or call (out: the output
 * view, out_what: what it is, for messages); and the names they are
 * given (item, i, re, ...), which no parameter or extent may take. */
void ggi_check_element_statements(ggi_decl *k, const ggi_kernel *kn, const char *text, int line,
                                  const char *field, const char *out, const char *out_what);
void ggi_check_element_names(ggi_decl *k, const ggi_kernel *kn, const char *const *names,
                             const char *sees);
/* combine or identity (field f, its text): one line gpugen pastes where
 * no parameter is in scope; what says what it is, for messages. */
void ggi_check_expr_field(ggi_decl *k, const ggi_kernel *kn, const char *f, const char *text,
                          const char *what);

/* ---- load_kernel.c ---- */

/* A kernel declaration (the table at k->t) into kn: its pattern's row
 * (patterns.h) reads the pattern's fields. */
void ggi_convert_kernel(ggi_decl *k, ggi_kernel *kn, unsigned targets);

/* Each pattern's readers (load_kernel.c, load_gemm.c, load_fft.c) are
 * declared in patterns.h and called through its row. */

/* ---- load_persistent.c ---- */

/* A frame (into fr, after every kernel) and a persistent kernel. */
void ggi_convert_frame(ggi_decl *k, ggi_kernel *fr, const ggi_module *m);
void ggi_convert_persistent(ggi_decl *k, ggi_persistent *p, const ggi_module *m);

/* ---- load_exchange.c ---- */
/* An exchange stage of frame fr: the entry at stack index e, stages[idx]
 * (its kind's quoted name is looked up from *pos for its line). */
void ggi_read_exchange(ggi_decl *k, int e, int idx, size_t *pos, int stages_line, ggi_kernel *fr,
                       ggi_stage *st);

#endif
