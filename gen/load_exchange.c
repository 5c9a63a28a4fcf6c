/*
 * load_exchange.c - a frame's exchange stage, { exchange = "allreduce",
 * view = "e", op = "sum" }, { exchange = "broadcast", view = "w", root = 0 },
 * { exchange = "allgather", view = "g" }, { exchange = "alltoall", view =
 * "a" } or { exchange = "halo", view = "x", width = 1, wrap = false }, in a
 * frame on several GPUs (gpus = N).
 *
 * The loader makes the stage a kernel of its own (its pattern is the
 * exchange kind's: ggi_exchange_patterns), with one parameter, the view,
 * bound to the frame's; the frame keeps it (ggi_stage.own), so it is no
 * entry of the module's kernels: nothing launches it, lists it or
 * describes it to the runtime.  From then on the schedule, the plan and
 * the render treat it as any stage: it reads and writes the whole view.
 */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <string.h>

#include "gg_team.h"
#include "loader.h"
#include "vocab.h"

/* The fields each kind takes (ggi_exchange_kind order), and all of them. */
static const char *const allreduce_fields[] = {"exchange", "view", "op", NULL};
static const char *const broadcast_fields[] = {"exchange", "view", "root", NULL};
static const char *const allgather_fields[] = {"exchange", "view", NULL};
static const char *const halo_fields[] = {"exchange", "view", "width", "wrap", NULL};
static const char *const *const kind_fields[GGI_EXCHANGE_COUNT] = {
  allreduce_fields, broadcast_fields, allgather_fields, allgather_fields, halo_fields};
static const char *const exchange_fields[] = {"exchange", "view", "op", "root", "width", "wrap",
                                              NULL};
static const char *const kind_why[GGI_EXCHANGE_COUNT] = {
  "an allreduce combines every GPU's view with op",
  "a broadcast sends GPU root's view to every GPU",
  "an allgather sends each GPU's part of the view to every GPU",
  "an alltoall sends block q of each GPU's view to GPU q",
  "a halo sends each GPU's edge rows to its neighbours' ghost rows"};

/* The element types an exchange combines: the numeric ones a GPU adds,
 * compares and moves as whole words (no 16-bit floats). */
static int exchange_type(gg_dtype t) { return !ggi_dtype_is_half(t); }

/* op: how an allreduce combines the GPUs' values. */
static int read_op(ggi_decl *r, int line)
{
  const char *op_text = ggi_opt_string(r, "op");
  const int op = op_text ? ggi_find_name(ggi_op_names, op_text) : -1;
  if (op != GGI_OP_SUM && op != GGI_OP_MIN && op != GGI_OP_MAX)
    ggi_decl_fail(r, op_text ? ggi_field_line(r, "op") : line,
                  "%s%s%s; an allreduce combines with op = \"sum\", \"min\" or \"max\"",
                  op_text ? "op = \"" : "op is missing", op_text ? op_text : "",
                  op_text ? "\" is not one of them" : "");
  return op;
}

/* root: the GPU a broadcast sends from (left out: 0). */
static int read_root(ggi_decl *r, int gpus)
{
  int64_t root = 0;
  if (ggi_opt_int(r, "root", &root) && (root < 0 || root >= gpus))
    ggi_decl_fail(r, ggi_field_line(r, "root"), "root = %lld: a broadcast sends from one of the "
                  "frame's %d GPUs, 0..%d", (long long)root, gpus, gpus - 1);
  return (int)root;
}

/* width: a halo's ghost rows at each end (left out: 1). */
static int read_width(ggi_decl *r)
{
  int64_t w = 1;
  if (ggi_opt_int(r, "width", &w) && (w < 1 || w > GG_XCHG_MOVE_ITEMS_MAX / 2))
    ggi_decl_fail(r, ggi_field_line(r, "width"), "width = %lld: a halo has 1..%d ghost rows at each end of "
                  "its view's outer index", (long long)w, GG_XCHG_MOVE_ITEMS_MAX / 2);
  return (int)w;
}

/* The stage's entry is the table at stack index e; idx its 1-based place
 * in stages (messages), s its index (the kernel's name). */
void ggi_read_exchange(ggi_decl *k, int e, int idx, size_t *pos, int stages_line, ggi_kernel *fr,
                       ggi_stage *st)
{
  lua_State *L = k->c->L;
  ggi_decl r = *k;
  r.t = e;
  const char *kind_text = NULL;
  lua_pushliteral(L, "exchange"); /* raw: no metamethod of the file runs */
  if (lua_rawget(L, e) == LUA_TSTRING)
    kind_text = ggi_to_cstring(k, -1, stages_line, "an exchange's kind");
  lua_pop(L, 1);
  size_t at = kind_text ? ggi_quoted_pos(k->c, *pos, k->end, kind_text) : (size_t)-1;
  const int line = at == (size_t)-1 ? stages_line : ggi_line_of(k->c, at);
  if (at != (size_t)-1) *pos = at + 1;
  r.line = r.end = line;
  snprintf(r.what, sizeof r.what, "%.90s: stage %d", k->what, idx);
  char names[256];
  ggi_join_names(ggi_exchange_names, names, sizeof names);
  const int kind = kind_text ? ggi_find_name(ggi_exchange_names, kind_text) : -1;
  ggi_check_fields(&r, e, kind < 0 ? exchange_fields : kind_fields[kind], exchange_fields,
                   kind < 0 ? "" : kind_why[kind]);
  if (!kind_text)
    ggi_decl_fail(&r, line, "exchange must name what the stage does across the GPUs: one of %s",
                  names);
  if (kind < 0)
    ggi_decl_fail(&r, line, "exchange = \"%s\" is not an exchange gpugen has; allowed: %s",
                  kind_text, names);
  if (fr->frame->gpus < 2)
    ggi_decl_fail(&r, line, "exchange = \"%s\" moves data between GPUs, but this frame runs on "
                  "one: give the frame gpus = N (2..%d), the GPUs it runs on", kind_text,
                  GG_TEAM_MAX);
  /* view: a frame view of a known size, exchanged whole */
  const char *view = ggi_opt_string(&r, "view");
  if (!view)
    ggi_decl_fail(&r, line, "exchange = \"%s\" needs view = \"a frame view\", the view it "
                  "combines across the GPUs", kind_text);
  const ggi_param *fp = ggi_find_param(fr, view);
  if (!fp || fp->kind != GG_PARAM_VIEW)
    ggi_decl_fail(&r, line, "view = \"%s\": %s; an exchange names a view among the frame's "
                  "parameters", view, fp ? "a scalar, not a view" : "the frame has no such parameter");
  /* the outer index (the slowest in memory: the first for layout right,
     the last for left): a halo's rows, which alone may be known at run
     time; an alltoall's blocks */
  const int halo = kind == GGI_EXCHANGE_HALO;
  const int outer_dim = ggi_outer_dim(fp);
  const int width = halo ? read_width(&r) : 0;
  /* an allreduce keeps N slots of the view on every GPU: smaller views;
     a halo moves w rows each way */
  const int most = kind == GGI_EXCHANGE_ALLREDUCE ? GG_XCHG_ITEMS_MAX
                   : halo                         ? GG_XCHG_MOVE_ITEMS_MAX / 2
                                                  : GG_XCHG_MOVE_ITEMS_MAX;
  int64_t count = halo ? width : 1;
  for (int d = 0; d < fp->rank && count <= most; d++) {
    if (halo && d == outer_dim)
      continue;
    if (fp->ext[d].name && halo)
      ggi_decl_fail(&r, line, "view = \"%s\": extent \"%s\" is known only at run time; a halo's "
                    "view may have one only in its outer index (the %s, e.g. %s%s): its "
                    "rows, which move, have constant extents", view, fp->ext[d].name,
                    fp->layout == GG_LAYOUT_LEFT ? "last, layout left" : "first",
                    ggi_dtype_name(fp->dtype), fp->layout == GG_LAYOUT_LEFT ? "[16][n]" : "[n][16]");
    if (fp->ext[d].name)
      ggi_decl_fail(&r, line, "view = \"%s\": extent \"%s\" is known only at run time; an "
                    "exchange moves a view of constant extents (e.g. %s[16]), at most %d "
                    "elements", view, fp->ext[d].name, ggi_dtype_name(fp->dtype), most);
    count *= fp->ext[d].value;
  }
  if (count > most)
    ggi_decl_fail(&r, line, "view = \"%s\" has more than %d elements%s, the most %s (%s: a "
                  "latency-bound exchange of one frame)", view, most,
                  halo ? " in its halo's rows (width x a row)" : "",
                  kind == GGI_EXCHANGE_ALLREDUCE ? "an allreduce combines"
                  : halo                         ? "a halo moves each way"
                                                 : "a broadcast, allgather or alltoall moves",
                  kind == GGI_EXCHANGE_ALLREDUCE ? "GG_XCHG_ITEMS_MAX"
                  : halo                         ? "GG_XCHG_MOVE_ITEMS_MAX / 2"
                                                 : "GG_XCHG_MOVE_ITEMS_MAX");
  if (!exchange_type(fp->dtype))
    ggi_decl_fail(&r, line, "view = \"%s\" is %s; an exchange moves f32, f64, i32, u32, i64 "
                  "or u64 elements", view, ggi_dtype_name(fp->dtype));
  if (fp->layout == GG_LAYOUT_STRIDE)
    ggi_decl_fail(&r, line, "view = \"%s\" has layout \"stride\"; an exchange moves a view whose "
                  "elements are contiguous: layout \"right\" or \"left\"", view);
  const ggi_extent outer = fp->rank == 0 ? (ggi_extent){0} : fp->ext[outer_dim];
  const char *which = fp->layout == GG_LAYOUT_LEFT ? "last, layout left" : "first";
  if (kind == GGI_EXCHANGE_ALLTOALL && (fp->rank == 0 ? 1 : outer.value) % fr->frame->gpus != 0)
    ggi_decl_fail(&r, line, "view = \"%s\": an alltoall cuts its outer index (the %s) in %d "
                  "equal blocks, one per GPU, but it has %lld; give it a multiple of %d",
                  view, which, fr->frame->gpus, (long long)(fp->rank == 0 ? 1 : outer.value),
                  fr->frame->gpus);
  /* 3w: the w rows each side sends must not be ghost rows of the other
     side, which the same stage writes while they are read */
  if (halo && !outer.name && outer.value < 3 * (int64_t)width)
    ggi_decl_fail(&r, line, "view = \"%s\": a halo of width %d needs at least %d rows in its "
                  "outer index (the %s: %d ghost %s at each end and the %d %s each end "
                  "sends between them), but it has %lld", view, width, 3 * width, which, width,
                  width == 1 ? "row" : "rows", width, width == 1 ? "row" : "rows",
                  (long long)outer.value);
  int op = GGI_OP_SUM, root = 0;
  if (kind == GGI_EXCHANGE_ALLREDUCE)
    op = read_op(&r, line);
  if (kind == GGI_EXCHANGE_BROADCAST)
    root = read_root(&r, fr->frame->gpus);
  /* the stage's kernel */
  ggi_kernel *kn = ggi_load_alloc(k->c, sizeof *kn);
  memset(kn, 0, sizeof *kn);
  char name[160];
  snprintf(name, sizeof name, "gg_%s_%s_%d", ggi_exchange_names[kind], fr->name, idx - 1);
  kn->name = ggi_load_strdup(k->c, name);
  kn->line = line;
  kn->pattern = ggi_exchange_patterns[kind];
  kn->targets = GGI_TARGET_CUDA;
  kn->launch = GG_LAUNCH_PERSISTENT;
  kn->rank = 1;
  kn->range[0].value = count;
  kn->nparams = 1;
  ggi_param *kp = ggi_load_alloc(k->c, sizeof *kp);
  *kp = *fp;
  kp->line = line;
  kp->access = GG_ACCESS_INOUT; /* it reads and writes the whole view */
  kn->params = kp;
  kn->extents = ggi_load_alloc(k->c, sizeof(char *));
  kn->op = (ggi_op)op;
  kn->acc_type = fp->dtype;
  kn->gpus = fr->frame->gpus;
  kn->root = root;
  kn->width = width;
  kn->wrap = halo && ggi_opt_bool(&r, "wrap");
  char *own = ggi_load_alloc(k->c, 1);
  own[0] = 0; /* the view is not touched at one index per thread */
  kn->own_index = own;
  st->kernel = kn->name;
  st->kernel_index = -1;
  st->own = kn;
  st->line = line;
  st->bind = ggi_load_alloc(k->c, sizeof(int));
  st->bind[0] = (int)(fp - fr->params);
  st->constant = ggi_load_alloc(k->c, sizeof(char *));
  st->constant[0] = NULL;
  st->ext = ggi_load_alloc(k->c, sizeof(ggi_extent));
  if (outer.name) { /* a halo's rows at run time: the frame's extent */
    kn->extents[0] = outer.name;
    kn->nextents = 1;
    st->ext[0] = outer;
  }
}
