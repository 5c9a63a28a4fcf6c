/*
 * load_persistent.c - `frame` and `persistent` declarations: a frame's
 * stages with their arguments bound to the frame's parameters, and a
 * persistent kernel's arrangement (its `layout` field), commands and
 * buffering.
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

#include "gg_team.h"
#include "loader.h"

#include "vocab.h"

static const char *const persistent_fields[] = {"layout", "commands", "buffering", "block",
                                                "blocks", "groups", NULL};

/* ------------------------------------------------------------------ */
/* persistent kernels and the module                                   */

static int find_kernel(const ggi_module *m, const char *name) {
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, name) == 0) return i;
  return -1;
}

/* ------------------------------------------------------------------ */
/* frames: a chain of stages, each a kernel with bound arguments       */

static const char *const frame_fields[] = {"params", "stages", "result", "gpus", NULL};

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
static void match_view(ggi_decl *k, int line, const ggi_kernel *kn, ggi_stage *st, const ggi_param *kp,
                       const ggi_param *fp, int *set) {
  char a[64], b[64];
  if (kp->dtype != fp->dtype || kp->rank != fp->rank || kp->layout != fp->layout)
    ggi_decl_fail(k, line, "stage \"%s\": \"%s\" is %s[...] (rank %d, layout %s) but frame parameter \"%s\" is "
          "%s[...] (rank %d, layout %s); a view binds to a frame view of the same element type, rank and layout",
          kn->name, kp->name, ggi_dtype_names[kp->dtype], kp->rank, ggi_layout_names[kp->layout], fp->name,
          ggi_dtype_names[fp->dtype], fp->rank, ggi_layout_names[fp->layout]);
  for (int r = 0; r < kp->rank; r++) {
    ggi_extent ke = kp->ext[r], fe = fp->ext[r];
    if (!ke.name) {
      if (fe.name || fe.value != ke.value)
        ggi_decl_fail(k, line, "stage \"%s\": extent %d of \"%s\" is %lld but frame parameter \"%s\" has %s; a "
              "static extent binds only to the same number", kn->name, r + 1, kp->name, (long long)ke.value,
              fp->name, ggi_extent_text(fe, b, sizeof b));
      continue;
    }
    ggi_extent *x = stage_extent(kn, st, ke.name);
    int j = (int)(x - st->ext);
    if (set[j] && !ggi_same_extent(*x, fe)) {
      char kv[200], fv[200];
      ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" of kernel \"%s\" would be both %s and %s of the frame "
            "(its \"%s\", %s, is bound to the frame's \"%s\", %s); every view of a stage must agree on it "
            "(a frame does not reshape a view: the same bytes in another shape are another view)",
            kn->name, ke.name, kn->name, ggi_extent_text(*x, a, sizeof a), ggi_extent_text(fe, b, sizeof b),
            kp->name, ggi_view_text(kp, kv, sizeof kv), fp->name, ggi_view_text(fp, fv, sizeof fv));
    }
    *x = fe;
    set[j] = 1;
  }
}

/* A number bound to a kernel scalar, as a C literal of the scalar's type. */
static const char *scalar_constant(ggi_decl *k, int line, const ggi_kernel *kn, const ggi_param *kp) {
  lua_State *L = k->c->L;
  char buf[64];
  int isint = 0;
  lua_Integer iv = lua_tointegerx(L, -1, &isint);
  int is_float = ggi_dtype_is_float(kp->dtype);
  if (is_float) {
    double v = lua_tonumber(L, -1);
    if (v != v || v - v != 0)
      ggi_decl_fail(k, line, "stage \"%s\": \"%s\" = %g is not a finite number", kn->name, kp->name, v);
    char why[160];
    const int misfit = ggi_float_misfit(v, kp->dtype, why, sizeof why);
    if (misfit != GGI_FLOAT_FITS)
      ggi_decl_fail(k, line, "stage \"%s\": \"%s\" = %g %s%s", kn->name, kp->name, v, why,
                    misfit == GGI_FLOAT_TOO_SMALL ? ": bind 0, or a larger value" : "");
    ggi_float_literal(v, buf, sizeof buf);
  } else {
    double v = lua_tonumber(L, -1);
    /* an integral number past 2^63 is a float in Lua: a u64 takes it whole */
    if (!isint && kp->dtype == GG_U64 && v >= 0x1p63 && v < 0x1p64) {
      snprintf(buf, sizeof buf, "%lluull", (unsigned long long)v);
      return ggi_load_strdup(k->c, buf);
    }
    if (!isint && v == floor(v) && v - v == 0)
      ggi_decl_fail(k, line, "stage \"%s\": \"%s\" = %.0f does not fit in %s", kn->name, kp->name, v,
            ggi_dtype_names[kp->dtype]);
    if (!isint) ggi_decl_fail(k, line, "stage \"%s\": \"%s\" = %.17g is not an integer (%s): bind it to an integer",
                      kn->name, kp->name, v, ggi_dtype_names[kp->dtype]);
    int ok = kp->dtype == GG_I32 ? iv >= INT32_MIN && iv <= INT32_MAX
           : kp->dtype == GG_U32 ? iv >= 0 && iv <= (lua_Integer)UINT32_MAX
           : kp->dtype == GG_U64 ? iv >= 0 : 1;
    if (!ok) ggi_decl_fail(k, line, "stage \"%s\": \"%s\" = %lld does not fit in %s", kn->name, kp->name,
                   (long long)iv, ggi_dtype_names[kp->dtype]);
    ggi_int_literal((long long)iv, kp->dtype == GG_U32 || kp->dtype == GG_U64 ? "u" : "", buf, sizeof buf);
  }
  return ggi_load_strdup(k->c, buf);
}

/* One { "kernel", param = "frame param" | number, extent = ..., ... } entry
 * at the top of the stack.  A kernel parameter not named in the entry binds
 * to the frame parameter of the same name. */
static void read_stage(ggi_decl *k, int idx, size_t *pos, int stages_line, const ggi_module *m, ggi_kernel *fr,
                       ggi_stage *st) {
  lua_State *L = k->c->L;
  int e = lua_gettop(L);
  if (lua_type(L, e) != LUA_TTABLE)
    ggi_decl_fail(k, stages_line, "stages[%d] must be a table { \"kernel\", param = \"frame param\", ... }, got %s", idx,
          luaL_typename(L, e));
  lua_pushliteral(L, "exchange");
  const int exchange = lua_rawget(L, e) != LUA_TNIL;
  lua_pop(L, 1);
  if (exchange) {
    ggi_read_exchange(k, e, idx, pos, stages_line, fr, st);
    return;
  }
  if (lua_rawgeti(L, e, 1) != LUA_TSTRING)
    ggi_decl_fail(k, stages_line, "stages[%d] must start with the name of a kernel, as in { \"scale\", x = \"x\" }", idx);
  const char *name = ggi_to_cstring(k, -1, stages_line, "a stage's kernel name");
  lua_pop(L, 1);
  size_t at = ggi_quoted_pos(k->c, *pos, k->end, name);
  int line = at == (size_t)-1 ? stages_line : ggi_line_of(k->c, at);
  if (at != (size_t)-1) *pos = at + 1;
  st->kernel = name;
  st->line = line;
  st->kernel_index = find_kernel(m, name);
  if (st->kernel_index < 0 || st->kernel_index >= m->nkernels) {
    const char *near = NULL;
    int best = 3; /* "did you mean": a kernel at most two edits away */
    for (int i = 0; i < m->nkernels; i++) {
      int d = ggi_pattern_is(&m->kernels[i], GGI_PAT_CHAIN) ? 99 : ggi_edit_distance(name, m->kernels[i].name);
      if (d < best) best = d, near = m->kernels[i].name;
    }
    if (strcmp(name, fr->name) == 0)
      ggi_decl_fail(k, line, "stage %d: \"%s\" is this frame; a stage is a kernel (frames do not nest)", idx, name);
    ggi_decl_fail(k, line, "stage %d: \"%s\" is not a kernel declared in this file%s%s%s (a stage is a kernel: "
          "not a persistent kernel, not a frame - frames do not nest)", idx, name, near ? "; did you mean \"" : "",
          near ? near : "", near ? "\"?" : "");
  }
  const ggi_kernel *kn = &m->kernels[st->kernel_index];
  if (ggi_pattern_is(kn, GGI_PAT_CHAIN))
    ggi_decl_fail(k, line, "stage %d: \"%s\" is a frame; a stage is a kernel (frames do not nest)", idx, name);
  if (kn->launch == GG_LAUNCH_COOPERATIVE)
    ggi_decl_fail(k, line, "stage %d: kernel \"%s\" is cooperative (launch = \"cooperative\" or strategy \"grid_sync\"); "
          "a frame runs inside a persistent kernel: give it launch = \"classic\" and another strategy", idx, name);
  st->bind = ggi_load_alloc(k->c, sizeof(int) * (size_t)(kn->nparams + 1));
  st->constant = ggi_load_alloc(k->c, sizeof(char *) * (size_t)(kn->nparams + 1));
  st->ext = ggi_load_alloc(k->c, sizeof(ggi_extent) * (size_t)(kn->nextents + 1));
  int *set = ggi_load_alloc(k->c, sizeof(int) * (size_t)(kn->nextents + 1));
  memset(set, 0, sizeof(int) * (size_t)(kn->nextents + 1));
  /* every key: [1], a kernel parameter or a kernel extent */
  lua_pushnil(L);
  while (lua_next(L, e)) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) == LUA_TNUMBER && isint && i == 1) continue;
    if (lua_type(L, -1) != LUA_TSTRING)
      ggi_decl_fail(k, line, "stage \"%s\": entries after the kernel name are written param = \"frame param\"", name);
    const char *key = lua_tostring(L, -1);
    if (ggi_find_param(kn, key)) continue;
    int is_ext = 0;
    for (int j = 0; j < kn->nextents; j++) is_ext |= strcmp(kn->extents[j], key) == 0;
    if (is_ext) continue;
    const char **names = ggi_load_alloc(k->c, sizeof(char *) * (size_t)(kn->nparams + kn->nextents + 1));
    int nn = 0;
    for (int j = 0; j < kn->nparams; j++) names[nn++] = kn->params[j].name;
    for (int j = 0; j < kn->nextents; j++) names[nn++] = kn->extents[j];
    names[nn] = NULL;
    const char *near = ggi_closest(names, key);
    char buf[512];
    if (near) ggi_decl_fail(k, line, "stage \"%s\": kernel \"%s\" has no parameter or extent '%s' (did you mean '%s'?)",
                    name, name, key, near);
    ggi_decl_fail(k, line, "stage \"%s\": kernel \"%s\" has no parameter or extent '%s'; it has: %s", name, name, key,
          ggi_join_names(names, buf, sizeof buf));
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
        ggi_decl_fail(k, line, "stage \"%s\": \"%s\" is a view; bind it to a frame view by name, not to a number", name,
              kp->name);
      st->constant[j] = scalar_constant(k, line, kn, kp);
      lua_pop(L, 1);
      continue;
    }
    if (t == LUA_TSTRING) target = ggi_to_cstring(k, -1, line, "a binding");
    else if (t != LUA_TNIL)
      ggi_decl_fail(k, line, "stage \"%s\": \"%s\" must be bound to a frame parameter's name or a number, got %s", name,
            kp->name, lua_typename(L, t));
    lua_pop(L, 1);
    const ggi_param *fp = ggi_find_param(fr, target);
    if (!fp) {
      if (t == LUA_TNIL)
        ggi_decl_fail(k, line, "stage \"%s\": parameter \"%s\" is not bound: write %s = \"a frame parameter\"%s, or "
              "declare a frame parameter \"%s\"", name, kp->name, kp->name,
              kp->kind == GG_PARAM_SCALAR ? " or a number" : "", kp->name);
      ggi_decl_fail(k, line, "stage \"%s\": \"%s\" = \"%s\": the frame has no parameter \"%s\"", name, kp->name, target,
            target);
    }
    st->bind[j] = (int)(fp - fr->params);
    if (kp->kind != fp->kind)
      ggi_decl_fail(k, line, "stage \"%s\": \"%s\" is a %s but frame parameter \"%s\" is a %s; bind a scalar to a "
            "scalar and a view to a view", name, kp->name, kp->kind == GG_PARAM_VIEW ? "view" : "scalar",
            fp->name, fp->kind == GG_PARAM_VIEW ? "view" : "scalar");
    if (kp->kind == GG_PARAM_SCALAR) {
      if (kp->dtype != fp->dtype)
        ggi_decl_fail(k, line, "stage \"%s\": \"%s\" is %s but frame parameter \"%s\" is %s; the types must be the same",
              name, kp->name, ggi_dtype_names[kp->dtype], fp->name, ggi_dtype_names[fp->dtype]);
      continue;
    }
    match_view(k, line, kn, st, kp, fp, set);
    /* views of one kernel are __restrict__: two bound to one frame view
       may overlap only when neither is written */
    for (int q = 0; q < j; q++)
      if (st->bind[q] == st->bind[j] && kn->params[q].kind == GG_PARAM_VIEW &&
          (is_writer(kp->access) || is_writer(kn->params[q].access)))
        ggi_decl_fail(k, line, "stage \"%s\": views \"%s\" and \"%s\" are both bound to frame parameter \"%s\" and one "
              "is written; views of one kernel must not overlap (they are __restrict__)", name,
              kn->params[q].name, kp->name, fp->name);
  }
  /* extents given by name (a team's league, or to restate one) */
  for (int j = 0; j < kn->nextents; j++) {
    lua_pushstring(L, kn->extents[j]);
    int t = lua_rawget(L, e), isint = 0;
    ggi_extent x = {NULL, 0};
    if (t == LUA_TSTRING) {
      x.name = ggi_to_cstring(k, -1, line, "an extent binding");
      int known = 0;
      for (int q = 0; q < fr->nextents; q++) known |= strcmp(fr->extents[q], x.name) == 0;
      if (!known)
        ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" = \"%s\": the frame has no extent \"%s\" (its extents are "
              "the names in its views' types)", name, kn->extents[j], x.name, x.name);
    } else if (t == LUA_TNUMBER) {
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint || v <= 0)
        ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" must be bound to a positive integer or a frame extent", name,
              kn->extents[j]);
      if (v > GGI_MAX_STATIC)
        ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" = %lld is too large; an extent known when the kernel is "
              "generated is at most " GGI_MAX_STATIC_TEXT, name, kn->extents[j], (long long)v);
      x.value = v;
    } else if (t != LUA_TNIL) {
      ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" must be bound to a frame extent's name or an integer, got %s",
            name, kn->extents[j], lua_typename(L, t));
    }
    lua_pop(L, 1);
    if (t == LUA_TNIL) {
      if (!set[j])
        ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" of kernel \"%s\" is not bound: no view bound to the frame "
              "gives it; write %s = \"a frame extent\" or a number", name, kn->extents[j], name, kn->extents[j]);
      continue;
    }
    char a[64], b[64];
    if (set[j] && !ggi_same_extent(st->ext[j], x))
      ggi_decl_fail(k, line, "stage \"%s\": extent \"%s\" is bound to %s but its views make it %s", name, kn->extents[j],
            ggi_extent_text(x, a, sizeof a), ggi_extent_text(st->ext[j], b, sizeof b));
    st->ext[j] = x;
    set[j] = 1;
  }
  /* the stage's range, with the numbers bound above, stays within what
     the generator and the kernels may multiply (loader.h) */
  int64_t indices = 1;
  for (int r = 0; r < kn->rank; r++) {
    int64_t v = kn->range[r].value;
    for (int j = 0; j < kn->nextents && kn->range[r].name; j++)
      if (strcmp(kn->extents[j], kn->range[r].name) == 0) v = st->ext[j].name ? 0 : st->ext[j].value;
    if (v <= 0) continue; /* known only at run time */
    if (v > GGI_MAX_STATIC / indices)
      ggi_decl_fail(k, line, "stage \"%s\": its extents, known when the kernel is generated, make its range "
            "more than " GGI_MAX_STATIC_TEXT " indices, the limit for such sizes", name);
    indices *= v;
  }
}

/* The frame's params read like a kernel's; a view's access, when left
 * out, is what the stages do with it; when written, it must allow that. */
static void frame_access(ggi_decl *k, ggi_kernel *fr, int params_line) {
  lua_State *L = k->c->L;
  ggi_frame *f = fr->frame;
  int t = ggi_push_field(k, "params");
  for (int i = 0; i < fr->nparams; i++) {
    ggi_param *fp = &fr->params[i];
    int reads = 0, writes = 0, atomics = 0, plain = 0, used = 0;
    for (int s = 0; s < f->nstages; s++) {
      const ggi_kernel *kn = ggi_frame_stage(f, s);
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
      ggi_decl_fail(k, fp->line, "frame parameter \"%s\" is bound by no stage; remove it or bind it", fp->name);
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
    else if ((fp->access == GG_ACCESS_IN && writes) || (!is_reader(fp->access) && reads))
      ggi_decl_fail(k, fp->line, "frame parameter \"%s\" is declared access = \"%s\" but a stage %s it; write "
            "access = \"%s\" or leave access out (it is then what the stages do)", fp->name,
            ggi_access_names[fp->access], fp->access == GG_ACCESS_IN ? "writes" : "reads",
            ggi_access_names[derived]);
  }
  lua_pop(L, 1);
  (void)params_line;
}

/* result = "view": a frame view of one element (<= 8 bytes, every
 * dtype is) that some stage writes; it rides in the frame's
 * acknowledgement (gg_protocol.h). */
static void frame_result(ggi_decl *k, ggi_kernel *fr) {
  ggi_frame *f = fr->frame;
  f->result = -1;
  const char *name = ggi_opt_string(k, "result");
  if (!name) return;
  int line = f->result_line = ggi_field_line(k, "result");
  for (int i = 0; i < fr->nparams; i++)
    if (strcmp(fr->params[i].name, name) == 0) f->result = i;
  if (f->result < 0)
    ggi_decl_fail(k, line, "field 'result' = \"%s\": the frame has no parameter \"%s\"; result names a "
          "frame view of one element (e.g. { \"e\", \"f32[1]\" }) that a stage writes", name, name);
  const ggi_param *p = &fr->params[f->result];
  int one = p->kind == GG_PARAM_VIEW;
  for (int d = 0; one && d < p->rank; d++) one = !p->ext[d].name && p->ext[d].value == 1;
  if (!one)
    ggi_decl_fail(k, line, "field 'result' = \"%s\": \"%s\" is %s; result names a view of exactly one "
          "element (a static extent of 1, e.g. %s[1]), which returns in the frame's acknowledgement",
          name, name, p->kind == GG_PARAM_VIEW ? "a view with more than one element" : "a scalar",
          ggi_dtype_name(p->dtype));
  if (p->access == GG_ACCESS_IN)
    ggi_decl_fail(k, line, "field 'result' = \"%s\": no stage writes \"%s\"; the result must be "
          "written by a stage of the frame", name, name);
}

/* gpus = N: the GPUs the frame runs on, one process each (left out: 1).
 * NVSHMEM, which moves the data, is CUDA's. */
static void frame_gpus(ggi_decl *k, ggi_kernel *fr, const ggi_module *m) {
  lua_State *L = k->c->L;
  fr->frame->gpus = 1;
  const int t = ggi_push_field(k, "gpus");
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  const int line = ggi_field_line(k, "gpus");
  int isint = 0;
  const lua_Integer n = lua_tointegerx(L, -1, &isint);
  if (t != LUA_TNUMBER || !isint || n < 2 || n > GG_TEAM_MAX) {
    char got[64];
    if (t == LUA_TNUMBER && isint) snprintf(got, sizeof got, "%lld", (long long)n);
    else if (t == LUA_TNUMBER) snprintf(got, sizeof got, "%g", lua_tonumber(L, -1));
    else snprintf(got, sizeof got, "a %s", lua_typename(L, t));
    ggi_decl_fail(k, line, "field 'gpus' must be an integer 2..%d, the GPUs the frame runs on "
                  "(one process each; leave it out for one GPU), got %s", GG_TEAM_MAX, got);
  }
  lua_pop(L, 1);
  if (m->targets & GGI_TARGET_HIP)
    ggi_decl_fail(k, line, "gpus = %lld: a frame on several GPUs runs on CUDA only (its exchanges "
                  "are NVSHMEM's); write module { targets = { \"cuda\" } }", (long long)n);
  fr->frame->gpus = (int)n;
}

void ggi_convert_frame(ggi_decl *k, ggi_kernel *fr, const ggi_module *m) {
  lua_State *L = k->c->L;
  ggi_check_fields(k, k->t, frame_fields, NULL, "");
  fr->targets = m->targets;
  fr->pattern = GG_PATTERN_FRAME;
  fr->launch = GG_LAUNCH_PERSISTENT;
  fr->frame = ggi_load_alloc(k->c, sizeof *fr->frame);
  memset(fr->frame, 0, sizeof *fr->frame);
  fr->frame->kernels = m->kernels;
  fr->params = ggi_read_params(k, "params", &fr->nparams, 0);
  int params_line = ggi_field_line(k, "params");
  for (int i = 0; i < fr->nparams; i++)
    if (fr->params[i].halo)
      ggi_decl_fail(k, fr->params[i].line, "frame parameter \"%s\": halo belongs to a stage kernel's view "
            "(the kernel's body says where it reads), not to a frame parameter", fr->params[i].name);
  ggi_collect_extents(k, fr);
  ggi_check_scope(k, fr);
  frame_gpus(k, fr, m);
  int t = ggi_push_field(k, "stages");
  int line = ggi_field_line(k, "stages");
  if (t == LUA_TNIL)
    ggi_decl_fail(k, k->line, "field 'stages' is missing; list the kernels this frame runs in order, e.g. "
          "stages = { { \"scale\", x = \"x\" }, { \"energy\" } }");
  int n = ggi_list_len(k, "stages", line);
  if (n < 1 || n > GGI_MAX_STAGES)
    ggi_decl_fail(k, line, "field 'stages' must list 1 to %d stages, got %d", GGI_MAX_STAGES, n);
  size_t pos = ggi_line_pos(k->c, line);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    read_stage(k, i + 1, &pos, line, m, fr, &fr->frame->stages[i]);
    lua_pop(L, 1);
    fr->frame->nstages = i + 1;
  }
  lua_pop(L, 1);
  frame_access(k, fr, params_line);
  frame_result(k, fr);
}


static void read_buffering(ggi_decl *k, ggi_persistent *p) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "buffering");
  int line = ggi_field_line(k, "buffering");
  p->buffering = 1;
  if (t == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    if (strcmp(s, "single") == 0) p->buffering = 1;
    else if (strcmp(s, "double") == 0) p->buffering = 2;
    else ggi_decl_fail(k, line, "field 'buffering' must be \"single\", \"double\" or { ring = N } (N 2..64), got \"%s\"", s);
  } else if (t == LUA_TTABLE) {
    ggi_decl r = *k;
    r.t = lua_gettop(L);
    r.line = r.end = line;
    snprintf(r.what, sizeof r.what, "%.90s: buffering", k->what);
    static const char *const ring_fields[] = {"ring", NULL};
    ggi_check_fields(&r, r.t, ring_fields, NULL, "");
    int64_t n;
    if (!ggi_opt_int(&r, "ring", &n)) ggi_decl_fail(k, line, "field 'buffering' must be { ring = N } with N 2..64");
    if (n < 2 || n > 64) ggi_decl_fail(k, line, "field 'buffering': ring size must be 2..64, got %lld", (long long)n);
    p->buffering = (int)n;
  } else if (t != LUA_TNIL) {
    ggi_decl_fail(k, line, "field 'buffering' must be \"single\", \"double\" or { ring = N }, got %s", lua_typename(L, t));
  }
  lua_pop(L, 1);
}

static void read_commands(ggi_decl *k, ggi_persistent *p, const ggi_module *m) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "commands");
  int line = ggi_field_line(k, "commands");
  if (t == LUA_TNIL) ggi_decl_fail(k, k->line, "field 'commands' is missing; list the kernels this loop runs, e.g. { \"sum\" }");
  int n = ggi_list_len(k, "commands", line);
  if (n < 1 || n > GG_COMMANDS_MAX) ggi_decl_fail(k, line, "field 'commands' must list 1 to %d kernels, got %d", GG_COMMANDS_MAX, n);
  for (int i = 0; i < n; i++) {
    if (lua_rawgeti(L, -1, i + 1) != LUA_TSTRING) ggi_decl_fail(k, line, "commands[%d] must be a kernel name", i + 1);
    const char *name = ggi_to_cstring(k, -1, line, "commands");
    lua_pop(L, 1);
    int ki = find_kernel(m, name);
    if (ki < 0) ggi_decl_fail(k, line, "command \"%s\" is not a kernel declared in this file", name);
    if (m->kernels[ki].launch == GG_LAUNCH_COOPERATIVE)
      ggi_decl_fail(k, line, "command \"%s\" is a cooperative kernel (launch = \"cooperative\" or strategy \"grid_sync\"); "
            "a persistent loop cannot run it: give it launch = \"classic\" and another strategy", name);
    for (int j = 0; j < i; j++)
      if (strcmp(p->commands[j], name) == 0) ggi_decl_fail(k, line, "duplicate command \"%s\"", name);
    p->commands[i] = name;
    p->command_index[i] = ki;
  }
  lua_pop(L, 1);
  p->ncommands = n;
}

void ggi_convert_persistent(ggi_decl *k, ggi_persistent *p, const ggi_module *m) {
  ggi_check_fields(k, k->t, persistent_fields, NULL, "");
  p->targets = m->targets;
  p->arrangement = (gg_persistent_layout)ggi_opt_enum(k, "layout", ggi_arrangement_names, GG_PLAYOUT_ONE_BLOCK);
  read_commands(k, p, m);
  read_buffering(k, p);
  p->block = ggi_opt_range(k, "block", 32, GG_BLOCK_THREADS_MAX, 32);
  int many = p->arrangement == GG_PLAYOUT_MANY_BLOCKS || p->arrangement == GG_PLAYOUT_HYBRID;
  int groups = p->arrangement == GG_PLAYOUT_THREAD_GROUPS || p->arrangement == GG_PLAYOUT_HYBRID;
  int64_t v;
  if (ggi_opt_int(k, "blocks", &v)) {
    if (!many) ggi_decl_fail(k, ggi_field_line(k, "blocks"), "field 'blocks' applies to layout \"many_blocks\" or \"hybrid\", not \"%s\"", ggi_arrangement_names[p->arrangement]);
    if (v < 1 || v > 4096) ggi_decl_fail(k, ggi_field_line(k, "blocks"), "field 'blocks' must be 1..4096, got %lld", (long long)v);
    p->blocks = (int)v;
  }
  if (ggi_opt_int(k, "groups", &v)) {
    if (!groups) ggi_decl_fail(k, ggi_field_line(k, "groups"), "field 'groups' applies to layout \"thread_groups\" or \"hybrid\", not \"%s\"", ggi_arrangement_names[p->arrangement]);
    /* each group syncs on a named barrier of its own: ids 1..GG_GROUPS_MAX */
    if (v < 1 || v > GG_GROUPS_MAX) ggi_decl_fail(k, ggi_field_line(k, "groups"), "field 'groups' must be 1..%d (one named barrier each), got %lld", GG_GROUPS_MAX, (long long)v);
    if (p->block && (p->block % v || (p->block / v) % 32))
      ggi_decl_fail(k, ggi_field_line(k, "groups"), "field 'groups': block %d does not split into %lld groups of whole warps", p->block, (long long)v);
    p->groups = (int)v;
  }
}
