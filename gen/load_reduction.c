/*
 * load_reduction.c - the fields of a kernel that combines values: value,
 * op or combine and identity, into, the accumulator type and strategy
 * (reduce, scan, tile_reduce), contribute() with into (team, fft and
 * gemm with post), and the rules of statements run on each output
 * element (post, between).  load_kernel.c and load_fft.c call in here.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "loader.h"
#include "lex.h"
#include "patterns.h"
#include "text_rules.h"
#include "vocab.h"

/* value = "expr" or { "expr1", "expr2", ... } */
static void read_values(ggi_decl *k, ggi_kernel *kn, int max) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "value");
  int line = ggi_field_line(k, "value");
  kn->value_line = ggi_text_line(k, "value");
  if (t == LUA_TNIL)
    ggi_decl_fail(k, k->line, "field 'value' is missing; pattern \"%s\" needs value = \"expression in %s\"",
          ggi_pattern_name(kn->pattern), kn->index[0]);
  if (t == LUA_TSTRING) {
    kn->nvalues = 1;
    kn->values[0] = ggi_to_cstring(k, -1, line, "field 'value'");
  } else if (t == LUA_TTABLE) {
    int n = ggi_list_len(k, "value", line);
    if (n < 1 || n > max)
      ggi_decl_fail(k, line, "field 'value' must hold 1 to %d expressions for pattern \"%s\", got %d", max,
            ggi_pattern_name(kn->pattern), n);
    for (int i = 0; i < n; i++) {
      if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) ggi_decl_fail(k, line, "value[%d] must be a string expression", i + 1);
      kn->values[i] = ggi_to_cstring(k, -1, line, "field 'value'");
      lua_pop(L, 1);
    }
    kn->nvalues = n;
  } else {
    ggi_decl_fail(k, line, "field 'value' must be a string expression or a list of them, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  for (int i = 0; i < kn->nvalues; i++)
    if (!kn->values[i][strspn(kn->values[i], " \t\r\n")]) ggi_decl_fail(k, line, "field 'value' is empty");
}

/* identity = "0" or 0: kept as text for the templates.  A number becomes a
 * C literal every compiler reads the same way: +-math.huge the prelude's
 * (+-GG_INF) (*infinite set), the most negative integer an expression
 * (its digits alone are no long long literal); NaN is no identity. */
/* A numeric identity, for the check against the accumulator type. */
typedef struct ident_num {
  int kind; /* 0: none or text, 1: integer i, 2: finite float f, 3: infinite */
  long long i;
  double f;
} ident_num;

static const char *read_identity(ggi_decl *k, ident_num *num) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "identity");
  int line = ggi_field_line(k, "identity");
  const char *s = NULL;
  char buf[64];
  num->kind = 0;
  if (t == LUA_TNUMBER) {
    if (lua_isinteger(L, -1)) {
      num->kind = 1, num->i = (long long)lua_tointeger(L, -1);
      ggi_int_literal(num->i, "", buf, sizeof buf);
    } else {
      double v = (double)lua_tonumber(L, -1);
      if (isnan(v))
        ggi_decl_fail(k, line, "field 'identity' is NaN (0/0), which is no identity: combine(NaN, a) is not a; "
              "give a number x with combine(x, a) == a");
      if (isinf(v)) {
        num->kind = 3;
        snprintf(buf, sizeof buf, "%s", v > 0 ? "(GG_INF)" : "(-GG_INF)");
      } else {
        num->kind = 2, num->f = v;
        ggi_float_literal(v, buf, sizeof buf);
      }
    }
    s = ggi_load_strdup(k->c, buf);
  } else if (t == LUA_TSTRING) {
    s = ggi_to_cstring(k, -1, line, "field 'identity'");
  } else if (t != LUA_TNIL) {
    ggi_decl_fail(k, line, "field 'identity' must be a number or a string, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
  return s;
}

static void read_op(ggi_decl *k, ggi_kernel *kn, ident_num *num) {
  kn->combine = ggi_opt_string(k, "combine");
  kn->combine_line = ggi_field_line(k, "combine");
  kn->identity = read_identity(k, num);
  kn->identity_line = ggi_field_line(k, "identity");
  int has_op = ggi_push_field(k, "op") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  if (kn->combine) {
    if (has_op) ggi_decl_fail(k, ggi_field_line(k, "op"), "give either op or combine, not both");
    if (!kn->identity)
      ggi_decl_fail(k, ggi_field_line(k, "combine"), "field 'identity' is missing; combine = \"...\" needs identity = the value x with combine(x, a) == a");
    kn->op = GGI_OP_CUSTOM;
    for (int i = 0; i < GGI_MAX_VALUES; i++) kn->ops[i] = GGI_OP_CUSTOM;
    return;
  }
  if (kn->identity) ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' goes with combine; op \"...\" has its own");
  if (ggi_push_field(k, "op") == LUA_TTABLE) {
    /* op = { "min", "max" }: one operator per value, in value order */
    int line = ggi_field_line(k, "op"), n = ggi_list_len(k, "op", line);
    if (!ggi_pattern_is(kn, GGI_PAT_OP_LIST))
      ggi_decl_fail(k, line, "field 'op' must be a string for pattern \"%s\" (a list of operators, one per value, is for patterns \"reduce\", \"team\", \"fft\" and \"gemm\")",
            ggi_pattern_name(kn->pattern));
    if (n != kn->nvalues && ggi_pattern_is(kn, GGI_PAT_CONTRIBUTE))
      ggi_decl_fail(k, line, "field 'op' lists %d operator%s but 'into' has %d element%s: give one operator per element (value), or one string for all",
            n, n == 1 ? "" : "s", kn->nvalues, kn->nvalues == 1 ? "" : "s");
    if (n != kn->nvalues)
      ggi_decl_fail(k, line, "field 'op' lists %d operator%s but 'value' has %d expression%s: give one operator per value, or one string for all",
            n, n == 1 ? "" : "s", kn->nvalues, kn->nvalues == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
      char buf[256];
      int t = lua_rawgeti(k->c->L, -1, i + 1);
      int o = t == LUA_TSTRING ? ggi_find_name(ggi_op_names, lua_tostring(k->c->L, -1)) : -1;
      if (o < 0 && t == LUA_TSTRING)
        ggi_decl_fail(k, line, "op[%d] must be one of %s, got \"%s\"", i + 1, ggi_join_names(ggi_op_names, buf, sizeof buf),
              ggi_to_cstring(k, -1, line, "field 'op'"));
      if (o < 0) ggi_decl_fail(k, line, "op[%d] must be one of %s, got %s", i + 1, ggi_join_names(ggi_op_names, buf, sizeof buf),
                       lua_typename(k->c->L, t));
      kn->ops[i] = (ggi_op)o;
      lua_pop(k->c->L, 1);
    }
    lua_pop(k->c->L, 1);
    kn->op = kn->ops[0];
    return;
  }
  lua_pop(k->c->L, 1);
  kn->op = (ggi_op)ggi_opt_enum(k, "op", ggi_op_names, GGI_OP_SUM);
  for (int i = 0; i < GGI_MAX_VALUES; i++) kn->ops[i] = kn->op;
}

/* The view `into` names, checked for access. */
static const ggi_param *read_into(ggi_decl *k, ggi_kernel *kn) {
  int line = ggi_field_line(k, "into");
  kn->into = ggi_opt_string(k, "into");
  if (!kn->into) ggi_decl_fail(k, k->line, "field 'into' is missing; name the out/inout view that receives the result");
  const ggi_param *p = ggi_find_param(kn, kn->into);
  if (!p || p->kind != GG_PARAM_VIEW)
    ggi_decl_fail(k, line, "field 'into' must name a view parameter with access \"out\" or \"inout\"; \"%s\" is %s",
          kn->into, p ? "a scalar" : "not a parameter");
  if (p->access != GG_ACCESS_OUT && p->access != GG_ACCESS_INOUT)
    ggi_decl_fail(k, line, "field 'into': view \"%s\" has access \"%s\"; the result view needs access = \"out\" or \"inout\"",
          kn->into, ggi_access_names[p->access]);
  if (p->rank != 1) ggi_decl_fail(k, line, "field 'into': view \"%s\" must have rank 1, got rank %d", kn->into, p->rank);
  return p;
}

/* What extent `into` must have: one element per value (reduce), the
 * range's (scan), one element per tile (tile_reduce). */
typedef void (*check_into_fn)(ggi_decl *k, ggi_kernel *kn, const ggi_param *into);

static void check_reduce_into(ggi_decl *k, ggi_kernel *kn, const ggi_param *into) {
  char a[64];
  ggi_extent want = {NULL, kn->nvalues};
  if (!ggi_same_extent(into->ext[0], want))
    ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': view \"%s\" must have extent [%d] (one element per value), got [%s]",
          kn->into, kn->nvalues, ggi_extent_text(into->ext[0], a, sizeof a));
}

static void check_scan_into(ggi_decl *k, ggi_kernel *kn, const ggi_param *into) {
  char a[64], b[64];
  ggi_extent n = kn->range[0];
  if (!ggi_same_extent(into->ext[0], n))
    ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': view \"%s\" must have the range's extent [%s], got [%s]", kn->into,
          ggi_extent_text(n, b, sizeof b), ggi_extent_text(into->ext[0], a, sizeof a));
}

static void check_tile_into(ggi_decl *k, ggi_kernel *kn, const ggi_param *into) {
  int line = ggi_field_line(k, "into");
  char a[64];
  ggi_extent n = kn->range[0];
  if (!n.name) {
    int64_t tiles = (n.value + kn->tile - 1) / kn->tile;
    if (into->ext[0].name || into->ext[0].value != tiles)
      ggi_decl_fail(k, line, "field 'into': view \"%s\" must have extent [%lld] = ceil(%lld / tile %d), got [%s]",
            kn->into, (long long)tiles, (long long)n.value, kn->tile, ggi_extent_text(into->ext[0], a, sizeof a));
  } else if (!into->ext[0].name || strcmp(into->ext[0].name, n.name) == 0) {
    ggi_decl_fail(k, line, "field 'into': view \"%s\" must have a run-time extent of its own (= ceil(%s / %d), "
          "e.g. \"f32[ntiles]\"), got [%s]", kn->into, n.name, kn->tile, ggi_extent_text(into->ext[0], a, sizeof a));
  }
}

static void read_acc_type(ggi_decl *k, ggi_kernel *kn, const ggi_param *into, const ident_num *num);

static void read_reduction(ggi_decl *k, ggi_kernel *kn, int max_values, check_into_fn check_into,
                           int has_strategy) {
  read_values(k, kn, max_values);
  ident_num num = {0};
  read_op(k, kn, &num);
  const ggi_param *into = read_into(k, kn);
  check_into(k, kn, into);
  read_acc_type(k, kn, into, &num);
  if (!has_strategy) return;
  kn->strategy = (ggi_strategy)ggi_opt_enum(k, "strategy", ggi_strategy_names, GGI_STRAT_AUTO);
  kn->allow_cas = ggi_opt_bool(k, "allow_cas");
  int atomic = kn->strategy == GGI_STRAT_GLOBAL_ATOMIC || kn->strategy == GGI_STRAT_SHARED_ATOMIC;
  if (atomic && ggi_ops_mixed(kn))
    ggi_decl_fail(k, ggi_field_line(k, "strategy"), "strategy \"%s\" merges every value with one atomic operator, but 'op' "
          "lists different ones: use strategy warp_shuffle, shared_tree, cg_tile, grid_sync or deterministic "
          "(or auto), or one operator for all values", ggi_strategy_names[kn->strategy]);
  if (atomic && ggi_atomic_needs_cas(kn->op, kn->acc_type, into->dtype, kn->targets)) {
    if (!kn->allow_cas)
      ggi_decl_fail(k, ggi_field_line(k, "strategy"), "strategy \"%s\" with op \"%s\" on %s needs a compare-and-swap loop "
            "(the target has no such atomic): set strategy = \"warp_shuffle\" (or shared_tree, "
            "deterministic), or allow_cas = true",
            ggi_strategy_names[kn->strategy], kn->op == GGI_OP_CUSTOM ? "combine" : ggi_op_names[kn->op],
            ggi_dtype_names[ggi_dtype_is_half(into->dtype) ? into->dtype : kn->acc_type]);
    kn->spec.cas_emulation = 1;
  }
}

/* type = ..., or into's type (f32 for f16/bf16 outputs). */
static void read_acc_type(ggi_decl *k, ggi_kernel *kn, const ggi_param *into, const ident_num *num) {
  /* the types an accumulation runs in: those that accumulate in themselves */
  const char *acc_names[GG_DTYPE_COUNT];
  gg_dtype acc_types[GG_DTYPE_COUNT];
  int nacc = 0;
  for (int t = 0; ggi_dtype_names[t]; t++)
    if (ggi_acc_dtype((gg_dtype)t) == (gg_dtype)t) {
      acc_names[nacc] = ggi_dtype_names[t];
      acc_types[nacc++] = (gg_dtype)t;
    }
  acc_names[nacc] = NULL;
  /* an fft's field type is its transform's: its accumulator is into's */
  int acc = ggi_pattern_is(kn, GGI_PAT_OWN_TYPE) ? -1 : ggi_opt_enum(k, "type", acc_names, -1);
  kn->acc_type = acc >= 0 ? acc_types[acc] : ggi_acc_dtype(into->dtype);
  int integer = !ggi_dtype_is_float(kn->acc_type);
  if (num->kind == 3 && integer)
    ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' is infinite, but the accumulator type %s is "
          "an integer: give a finite identity, or type = \"f32\" or \"f64\"", ggi_dtype_names[kn->acc_type]);
  if (!integer || (num->kind != 1 && num->kind != 2)) return;
  /* an integer accumulator takes what converts to it exactly: integers of
     its range, and for unsigned ones negatives down to -2^31 / -2^63,
     which wrap as in C (-1 is all ones, min's identity) */
  static const double lo[] = {[GG_I32] = -0x1p31, [GG_U32] = -0x1p31, [GG_I64] = -0x1p63,
                               [GG_U64] = -0x1p63};
  static const double hi[] = {[GG_I32] = 0x1p31, [GG_U32] = 0x1p32, [GG_I64] = 0x1p63,
                               [GG_U64] = 0x1p64}; /* exclusive */
  const gg_dtype t = kn->acc_type;
  const double v = num->kind == 1 ? (double)num->i : num->f;
  char text[48];
  if (num->kind == 1) snprintf(text, sizeof text, "%lld", num->i);
  else snprintf(text, sizeof text, "%.17g", num->f);
  if (num->kind == 2 && v != floor(v))
    ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' = %s is no integer, but the "
          "accumulator type %s is: give an integer, or type = \"f32\" or \"f64\"", text,
          ggi_dtype_names[t]);
  static const char *const range[] = {
      [GG_I32] = "-2147483648 to 2147483647",
      [GG_U32] = "0 to 4294967295, or an integer down to -2147483648, which wraps as in C: -1 is "
                 "all ones",
      [GG_I64] = "-2^63 to 2^63 - 1",
      [GG_U64] = "0 to 2^64 - 1, or a negative integer, which wraps as in C: -1 is all ones"};
  const int unsigned_float = num->kind == 2 && (t == GG_U32 || t == GG_U64) && v < 0;
  if (t <= GG_U64 && (v < lo[t] || v >= hi[t] || unsigned_float) &&
      !(num->kind == 1 && (t == GG_I64 || t == GG_U64)))
    ggi_decl_fail(k, ggi_field_line(k, "identity"), "field 'identity' = %s is outside what %s "
          "holds (%s): give an identity the accumulator holds", text, ggi_dtype_names[t],
          range[t]);
}

/* combine and identity are one-line expressions that gpugen pastes into
 * code of its own (a #define GG_COMBINE(a, b), an identity() function)
 * where no parameter is in scope: one line, closed brackets, literals
 * and comments, and no parameter's name. */
void ggi_check_expr_field(ggi_decl *k, const ggi_kernel *kn, const char *f, const char *text,
                          const char *what) {
  if (!text) return;
  int line = ggi_field_line(k, f), at;
  ggi_diag why;
  if (strpbrk(text, "\n\r"))
    ggi_decl_fail(k, line, "field '%s' is one line: %s", f, what);
  /* a // comment, a '#' or a '\' would reach past it (into gpugen's
     #define or the line after) */
  if (strstr(text, "//") || strpbrk(text, "#\\"))
    ggi_decl_fail(k, line, "field '%s' holds %s: it is %s, without comments, '#' or '\\'", f,
          strstr(text, "//") ? "a // comment" : strchr(text, '#') ? "a '#'" : "a '\\'", what);
  if (ggi_text_check(text, line, f, kn->targets, &at, &why)) ggi_decl_fail(k, at, "%s", why.msg);
  int combine = strcmp(f, "combine") == 0;
  for (int i = 0; i < kn->nparams; i++)
    if ((!combine || (strcmp(kn->params[i].name, "a") && strcmp(kn->params[i].name, "b"))) &&
        ggi_text_names(text, kn->params[i].name))
      ggi_decl_fail(k, line, "field '%s' names parameter \"%s\": it is %s, evaluated where no "
            "parameter is in scope", f, kn->params[i].name, what);
}

/* Every contribute(...) call in text (field `field`) passes one value
 * per element of into: the compiler would say so only in a static_assert
 * deep in the generated source. */
static void check_contribute_calls(ggi_decl *k, const ggi_kernel *kn, const char *text, int line,
                                   const char *field) {
  int lines, got = ggi_call_arity(text, "contribute", kn->nvalues, &lines);
  if (got >= 0)
    ggi_decl_fail(k, line + lines, "field '%s': contribute() takes one value per element of into "
          "\"%s\" (%d), got %d", field, kn->into, kn->nvalues, got);
}

/* A team kernel (or an fft with post) with `into` reduces: any thread of
 * any team may call contribute(v0, ...) (one value per element of into)
 * and the kernel writes the combination of every contribution into
 * `into`.  Without `into`, the reduction's fields have nothing to apply
 * to. */
void ggi_read_contributions(ggi_decl *k, ggi_kernel *kn) {
  /* an fft's field type is its transform's (c2c, ...): its accumulator
     is into's type */
  static const char *const needs_into[] = {"op", "combine", "identity", "type", "strategy", NULL};
  const ggi_pattern_row *row = ggi_pattern_of(kn->pattern);
  const int own_type = (row->props & GGI_PAT_OWN_TYPE) != 0;
  const char *what = row->contribute_what;
  int has_into = ggi_push_field(k, "into") != LUA_TNIL;
  lua_pop(k->c->L, 1);
  if (!has_into) {
    for (int i = 0; needs_into[i]; i++) {
      if (own_type && strcmp(needs_into[i], "type") == 0) continue;
      int t = ggi_push_field(k, needs_into[i]);
      lua_pop(k->c->L, 1);
      if (t != LUA_TNIL)
        ggi_decl_fail(k, ggi_field_line(k, needs_into[i]), "field '%s' belongs to a reduction, which also needs "
              "into = \"an out view of 1 to %d elements\" (the %s contribute(v))", needs_into[i],
              GGI_MAX_VALUES, what);
    }
    return;
  }
  const ggi_param *into = read_into(k, kn);
  char a[64];
  if (into->ext[0].name || into->ext[0].value > GGI_MAX_VALUES)
    ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': view \"%s\" must have a static extent of 1 to %d (one "
          "element per value the body contributes), got [%s]", kn->into, GGI_MAX_VALUES,
          ggi_extent_text(into->ext[0], a, sizeof a));
  kn->nvalues = (int)into->ext[0].value;
  check_contribute_calls(k, kn, kn->body, kn->body_line, row->contribute_field);
  if (kn->fft_between) check_contribute_calls(k, kn, kn->fft_between, kn->fft_between_line, "between");
  ident_num num = {0};
  read_op(k, kn, &num);
  read_acc_type(k, kn, into, &num);
  kn->strategy = (ggi_strategy)ggi_opt_enum(k, "strategy", ggi_strategy_names, GGI_STRAT_AUTO);
  int line = ggi_field_line(k, "strategy");
  switch (kn->strategy) {
  case GGI_STRAT_AUTO: case GGI_STRAT_WARP_SHUFFLE: case GGI_STRAT_SHARED_TREE: case GGI_STRAT_CG_TILE:
    break;
  case GGI_STRAT_DETERMINISTIC:
    if (kn->launch == GG_LAUNCH_COOPERATIVE)
      ggi_decl_fail(k, line, "strategy \"deterministic\" fixes the grid, but launch = \"cooperative\" sizes it to the "
            "co-resident blocks: give one of them");
    break;
  default:
    ggi_decl_fail(k, line, "strategy \"%s\" is not for contribute() (each block combines its threads in shared "
          "memory, the last block combines the blocks): use auto, warp_shuffle, shared_tree, cg_tile or "
          "deterministic", ggi_strategy_names[kn->strategy]);
  }
}

/* Statements that run once for each element of a kernel's output, in
 * the thread that holds it (an fft's post and between, a gemm's post),
 * may not name: that output (its elements are being written: the
 * statements change an element through re and im), into (the last block
 * writes it), block barriers (threads hold different counts of elements:
 * a barrier would hang), nor call contribute without into (nothing to
 * contribute to).  out_what says what the output is, for messages. */
void ggi_check_element_statements(ggi_decl *k, const ggi_kernel *kn, const char *text, int line,
                                  const char *field, const char *out, const char *out_what)
{
  static const char *const barriers[] = {"__syncthreads", "__syncthreads_count",
                                         "__syncthreads_and", "__syncthreads_or", "__syncwarp",
                                         "__barrier_sync", "this_thread_block", "cooperative_groups",
                                         "asm", NULL};
  if (!text) return;
  if (ggi_text_names(text, out))
    ggi_decl_fail(k, line, "field '%s' names view \"%s\", %s: the statements change the "
                  "element through re and im (the output is being written)", field, out, out_what);
  if (kn->into && ggi_text_names(text, kn->into))
    ggi_decl_fail(k, line, "field '%s' names view \"%s\", the kernel's into: the statements "
                  "contribute(v) to it, the last block writes it", field, kn->into);
  for (int b = 0; barriers[b]; b++)
    if (ggi_text_names(text, barriers[b]))
      ggi_decl_fail(k, line, "field '%s' uses %s: the statements run once per element a thread "
                    "holds, and threads hold different counts, so they may not synchronize "
                    "(no barrier, no cooperative groups, no asm)", field, barriers[b]);
  if (!kn->into && ggi_text_names(text, "contribute"))
    ggi_decl_fail(k, line, "field '%s' calls contribute() but the kernel has no into: add "
                  "into = \"an out view of 1 to %d elements\" (and op, default sum)", field,
                  GGI_MAX_VALUES);
}

/* The names such statements are given (names, NULL-terminated; sees says
 * so, for the message) may not also be a parameter's or an extent's. */
void ggi_check_element_names(ggi_decl *k, const ggi_kernel *kn, const char *const *names,
                             const char *sees)
{
  for (int p = 0; p < kn->nparams; p++)
    for (int j = 0; names[j]; j++) {
      const ggi_param *pp = &kn->params[p];
      char what[128] = "";
      if (strcmp(pp->name, names[j]) == 0) snprintf(what, sizeof what, "parameter \"%s\"", names[j]);
      for (int d = 0; !what[0] && d < pp->rank; d++)
        if (pp->ext[d].name && strcmp(pp->ext[d].name, names[j]) == 0)
          snprintf(what, sizeof what, "extent \"%s\" of view \"%s\"", names[j], pp->name);
      if (what[0])
        ggi_decl_fail(k, pp->line, "%s: %s; give the %s another name", what, sees,
                      what[0] == 'p' ? "parameter" : "extent");
    }
}

void ggi_read_reduce_fields(ggi_decl *k, ggi_kernel *kn) {
  read_reduction(k, kn, GGI_MAX_VALUES, check_reduce_into, 1);
}

void ggi_read_scan_fields(ggi_decl *k, ggi_kernel *kn) {
  kn->scan_kind = (ggi_scan_kind)ggi_opt_enum(k, "kind", ggi_scan_names, GGI_SCAN_INCLUSIVE);
  read_reduction(k, kn, 1, check_scan_into, 0);
}

void ggi_read_tile_fields(ggi_decl *k, ggi_kernel *kn) {
  int64_t t;
  if (!ggi_opt_int(k, "tile", &t)) ggi_decl_fail(k, k->line, "field 'tile' is missing; give elements per tile, 2..1024");
  if (t < 2 || t > 1024) ggi_decl_fail(k, ggi_field_line(k, "tile"), "field 'tile' must be 2..1024, got %lld", (long long)t);
  kn->tile = (int)t;
  read_reduction(k, kn, 1, check_tile_into, 0);
}
