/*
 * graph.c - capture launches on a stream into a CUDA/HIP graph and replay
 * them with one driver call (gg.h, "graphs").
 *
 * A replay runs exactly the argument structs packed at capture time, the
 * hidden fields included.  The workspace address is fine frozen (kernels
 * leave their workspace as they found it), the launch sequence gg_seq is
 * not: a scan tells this launch's look-back flags from stale ones by it,
 * and a replay reusing one value would read the previous replay's flags as
 * fresh.  So the capture notes every gg_seq kernel's launch counter when it
 * begins and refuses, when it ends, if one of them moved.  The check sits
 * here rather than in gg_launch so the launch hot path stays untouched.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct seq_mark {
  gg_kernel *k;
  unsigned seq;
} seq_mark;

struct gg_graph {
  gg_context *ctx;
  gg_stream *capturing; /* the stream while capturing, NULL once ended */
  void *exec;           /* instantiated graph (NULL until capture end succeeds) */
  seq_mark *marks;      /* gg_seq kernels of the context at capture begin */
  int nmarks;
};

static int needs_seq(const gg_kernel_desc *kd) {
  for (int i = 0; i < kd->nparams; i++)
    if (kd->params[i].kind == GG_PARAM_HIDDEN && kd->params[i].hidden == GG_HIDDEN_SEQ) return 1;
  return 0;
}

/* Note the launch counter of every loaded kernel that needs gg_seq. */
static gg_status mark_seq_kernels(gg_graph *g) {
  int n = 0;
  for (gg_module *m = g->ctx->modules; m; m = m->next)
    for (int i = 0; i < m->desc->nkernels; i++) n += needs_seq(m->kernels[i].desc);
  if (n == 0) return GG_OK;
  g->marks = calloc((size_t)n, sizeof *g->marks);
  if (!g->marks) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  for (gg_module *m = g->ctx->modules; m; m = m->next)
    for (int i = 0; i < m->desc->nkernels; i++)
      if (needs_seq(m->kernels[i].desc))
        g->marks[g->nmarks++] =
            (seq_mark){&m->kernels[i], __atomic_load_n(&m->kernels[i].seq, __ATOMIC_RELAXED)};
  return GG_OK;
}

/* The first gg_seq kernel launched since capture begin, or NULL. */
static const gg_kernel *moved_seq_kernel(const gg_graph *g) {
  for (int i = 0; i < g->nmarks; i++)
    if (__atomic_load_n(&g->marks[i].k->seq, __ATOMIC_RELAXED) != g->marks[i].seq)
      return g->marks[i].k;
  return NULL;
}

gg_status gg_graph_capture_begin(gg_stream *s, gg_graph **out) {
  if (!out) return GGR_NULL_ARG();
  *out = NULL;
  if (!s)
    return ggr_set_error(GG_ERR_INVALID, "graph capture needs a stream from gg_stream_open: "
                         "the legacy default stream cannot be captured");
  gg_context *ctx = s->ctx;
  const ggr_backend *be = ctx->be;
  if (!be->capture_begin || !be->capture_end || !be->graph_instantiate || !be->graph_launch ||
      !be->graph_destroy || !be->graph_exec_destroy)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "graphs: %s (%s) has no stream capture / graph "
                         "entry points", be->name, be->lib_path ? be->lib_path : "?");
  gg_graph *g = calloc(1, sizeof *g);
  if (!g) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  g->ctx = ctx;
  gg_status st = mark_seq_kernels(g);
  if (!st) st = ggr_make_current(ctx);
  if (!st) st = ggr_check(ctx, be->capture_begin(s->native), "graph capture begin");
  if (st) {
    free(g->marks);
    free(g);
    return st;
  }
  g->capturing = s;
  *out = g;
  return GG_OK;
}

/* Leave capture mode; *graph gets what was recorded (may be NULL). */
static gg_status stop_capture(gg_graph *g, void **graph) {
  gg_context *ctx = g->ctx;
  gg_stream *s = g->capturing;
  g->capturing = NULL;
  *graph = NULL;
  gg_status st = ggr_make_current(ctx);
  if (st) return st;
  return ggr_check(ctx, ctx->be->capture_end(s->native, graph),
                   "graph capture end (a synchronizing call or a failed launch on the capturing "
                   "stream breaks the capture)");
}

gg_status gg_graph_capture_end(gg_graph *g) {
  if (!g) return GGR_NULL_ARG();
  gg_context *ctx = g->ctx;
  const ggr_backend *be = ctx->be;
  if (!g->capturing)
    return ggr_set_error(GG_ERR_STATE, "graph capture end: this graph is not capturing");
  void *graph;
  gg_status st = stop_capture(g, &graph);
  const gg_kernel *bad = moved_seq_kernel(g);
  if (!st && bad)
    st = ggr_set_error(GG_ERR_UNSUPPORTED, "graph capture: kernel %s was launched while "
                       "capturing, and it needs a fresh gg_seq at every launch (its %s flags "
                       "are told apart from stale ones by it); a replay would reuse one value "
                       "and misread them. Launch it with gg_launch, outside graphs",
                       bad->desc->name, bad->desc->pattern == GG_PATTERN_SCAN ? "look-back"
                                                                             : "workspace");
  if (!st) st = ggr_check(ctx, be->graph_instantiate(&g->exec, graph), "graph instantiate");
  /* the executable graph is independent of the graph it came from */
  if (graph) be->graph_destroy(graph);
  if (st) g->exec = NULL;
  return st;
}

gg_status gg_graph_launch(gg_graph *g, gg_stream *s) {
  if (!g) return GGR_NULL_ARG();
  gg_context *ctx = g->ctx;
  if (!g->exec)
    return ggr_set_error(GG_ERR_STATE, "graph launch: the graph was not captured "
                         "successfully (gg_graph_capture_end)");
  if (s && s->ctx != ctx)
    return ggr_set_error(GG_ERR_INVALID, "graph launch: stream of another context");
  void *stream = s ? s->native : NULL;
  int r = ctx->be->graph_launch(g->exec, stream);
  if (r == GGR_E_INVALID_CONTEXT) {
    /* first call from a new thread: CUDA contexts are current per thread */
    ggr_make_current(ctx);
    r = ctx->be->graph_launch(g->exec, stream);
  }
  if (r == 0) return GG_OK;
  gg_status st = ggr_check(ctx, r, "graph launch");
  return st == GG_ERR_BACKEND ? GG_ERR_LAUNCH : st; /* the detail says which driver error */
}

void gg_graph_free(gg_graph *g) {
  if (!g) return;
  const ggr_backend *be = g->ctx->be;
  if (g->capturing) {
    void *graph;
    stop_capture(g, &graph);
    if (graph) be->graph_destroy(graph);
  }
  if (g->exec && ggr_make_current(g->ctx) == GG_OK) be->graph_exec_destroy(g->exec);
  free(g->marks);
  free(g);
}
