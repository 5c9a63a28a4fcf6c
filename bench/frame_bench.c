/*
 * frame_bench.c - S = 1, 2, 4, 8 dependent stages over 32K and 1M floats
 * (bench/frame_bench.lua through gpugen at build time), two kinds of
 * chain: "step" (y = 0.5 y + x: each stage reads y only where its own
 * thread wrote it, so the frame has no barrier) and "smooth" (a 3-point
 * stencil ping-ponging between x and y: a grid barrier before every
 * stage but the first), and "smooth_h", the same stencil declaring
 * halo = 1 (the second stage waits only for its two neighbour blocks, the
 * later ones only for their own block, the neighbours' edge elements
 * coming in tagged words where the range takes at most two grid-stride
 * steps, else they wait for neighbours too; its graph rows launch the
 * halo kernel, whose view checks every index).
 * Side by side in one process:
 *   launch + sync   S gg_launch of the kernel, then gg_stream_sync
 *   CUDA graph      the same S launches captured once (gg_graph_*), replayed + sync
 *   graph+PDL       the same, captured from a stream with gg_stream_set_pdl:
 *                   each kernel may start while the one before finishes
 *                   (programmatic dependent launch, sm_90+)
 *   gpugen frame    one frame of S stages in a persistent kernel: one handshake
 *                   (gg_session_start_packed + gg_session_wait), on 16, 132
 *                   and 264 blocks of 256 threads and, at 32K, one block of 1024
 * Prints mean, p50, p99, p99.9, max (us) and the p50 ratios graph / this
 * and graph+PDL / this; then per kind, size and S the best frame against
 * both graphs, and the cost of one more dependent stage: (p50 at S=8 -
 * p50 at S=1) / 7.
 * Usage: frame_bench [iterations per row, default 3000]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_bench.h"
#include "gg.h"
#include "gg_session.h"
#include "stats.h"
#include "../tests/gg_check.h" /* CHECK_OK: the tests' assertion on a libgg call */

#define WAIT_NS 2000000000ll
#define NKIND 3
#define NSIZE 2
#define NS 4
#define NLAYOUT 4 /* 16, 132, 264 blocks; one block */

static gg_context *ctx;
static int iters = 3000;


static const char *const kind_kernel[NKIND] = {"step", "smooth", "smooth_h"};
static const char *const kind_frame[NKIND] = {"s", "m", "mh"};
static const char *const kind_what[NKIND] = {"step (same-thread: no barrier)",
                                             "smooth (stencil: a barrier per stage)",
                                             "smooth halo 1 (halo exchange)"};
static const int S[NS] = {1, 2, 4, 8};
static const long long N[NSIZE] = {32768, 1 << 20};
static const int blocks[3] = {16, 132, 264};

static double graph_p50[NKIND][NSIZE][NS], pdl_p50[NKIND][NSIZE][NS];
static double frame_p50[NKIND][NSIZE][NS][NLAYOUT];

static double p50_of(bench_stats *st)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  return r.p50;
}

static void row(const char *what, int s, bench_stats *st, double graph, double pdl)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  char label[96];
  snprintf(label, sizeof label, "S=%d %s", s, what);
  printf("%-44s %9.2f %9.2f %9.2f %9.2f %9.2f   %5.2fx  %5.2fx\n", label, r.mean, r.p50, r.p99,
         r.p999, r.max, graph > 0 ? graph / r.p50 : 1.0, pdl > 0 ? pdl / r.p50 : 0.0);
  fflush(stdout);
}

/* Stage k's arguments: step always (x, y); smooth (with or without its
 * halo) ping-pongs. */
static const gg_arg *stage_args(int kind, int k, const gg_arg *xy, const gg_arg *yx)
{
  return kind > 0 && k % 2 ? yx : xy;
}

/* One timed row: S launches (+ sync), or a graph replay (+ sync). */
static void time_launches(gg_kernel *kern, int kind, int s, gg_stream *stream, const gg_arg *xy,
                          const gg_arg *yx, bench_stats *st)
{
  bench_stats_reset(st);
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    for (int k = 0; k < s; k++) gg_launch(kern, stream, stage_args(kind, k, xy, yx), 3);
    CHECK_OK(gg_stream_sync(stream));
    if (i >= iters / 10) bench_stats_add(st, bench_now_us() - t0);
  }
}

static void time_graph(gg_kernel *kern, int kind, int s, gg_stream *capture, gg_stream *stream,
                       const gg_arg *xy, const gg_arg *yx, bench_stats *st)
{
  gg_graph *g;
  CHECK_OK(gg_graph_capture_begin(capture, &g));
  for (int k = 0; k < s; k++) CHECK_OK(gg_launch(kern, capture, stage_args(kind, k, xy, yx), 3));
  CHECK_OK(gg_graph_capture_end(g));
  bench_stats_reset(st);
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    gg_graph_launch(g, stream);
    CHECK_OK(gg_stream_sync(stream));
    if (i >= iters / 10) bench_stats_add(st, bench_now_us() - t0);
  }
  gg_graph_free(g);
}

/* The frame rows of one kind, size and S, on every layout. */
static void time_frames(gg_module *mod, int kind, int z, int si, const gg_arg *xy,
                        bench_stats *st)
{
  int s = S[si];
  char fname[8];
  snprintf(fname, sizeof fname, "%s%d", kind_frame[kind], s);
  gg_kernel *fk;
  CHECK_OK(gg_kernel_get(mod, fname, &fk));
  const gg_kernel_desc *kd = gg_kernel_describe(fk);
  unsigned char packed[128];
  CHECK_OK(gg_pack_args(kd, xy, 3, packed, sizeof packed));
  for (int l = 0; l < NLAYOUT; l++) {
    if (l == 3 && z == 1) continue; /* 1M on one block: not a fit */
    gg_session_options opt = {0};
    opt.buffering = 1;
    if (l < 3) opt.blocks = blocks[l];
    gg_session *se;
    if (gg_session_open(mod, l < 3 ? "whole" : "one", &opt, &se)) {
      printf("S=%d frame %s: not run: %s\n", s, l < 3 ? "many_blocks" : "one_block",
             gg_error_detail());
      continue;
    }
    int cmd;
    CHECK_OK(gg_session_command(se, fname, &cmd));
    bench_stats_reset(st);
    for (int i = 0; i < iters + iters / 10; i++) {
      double t0 = bench_now_us();
      gg_session_start_packed(se, cmd, packed, kd->args_size, NULL);
      if (gg_session_wait(se, WAIT_NS)) {
        fprintf(stderr, "frame %s: %s\n", fname, gg_error_detail());
        exit(1);
      }
      if (i >= iters / 10) bench_stats_add(st, bench_now_us() - t0);
    }
    frame_p50[kind][z][si][l] = p50_of(st);
    char what[64];
    if (l < 3) snprintf(what, sizeof what, "gpugen frame, %d blocks x 256", gg_session_blocks(se));
    else snprintf(what, sizeof what, "gpugen frame, one block x 1024");
    row(what, s, st, graph_p50[kind][z][si], pdl_p50[kind][z][si]);
    CHECK_OK(gg_session_terminate(se));
    gg_session_free(se);
  }
}

static double best_frame(int kind, int z, int si)
{
  double best = 0;
  for (int l = 0; l < NLAYOUT; l++) {
    double v = frame_p50[kind][z][si][l];
    if (v > 0 && (best == 0 || v < best)) best = v;
  }
  return best;
}

static void summary(void)
{
  printf("-- best frame (p50) vs CUDA graph and vs graph+PDL\n");
  printf("%-40s %6s %3s %9s %9s %9s %10s %12s\n", "kind", "n", "S", "graph", "graph+PDL",
         "frame", "vs graph", "vs graph+PDL");
  for (int kind = 0; kind < NKIND; kind++)
    for (int z = 0; z < NSIZE; z++)
      for (int si = 0; si < NS; si++) {
        double f = best_frame(kind, z, si), g = graph_p50[kind][z][si], p = pdl_p50[kind][z][si];
        printf("%-40s %6lld %3d %9.2f %9.2f %9.2f %9.2fx %11.2fx\n", kind_what[kind], N[z],
               S[si], g, p, f, f > 0 ? g / f : 0, f > 0 && p > 0 ? p / f : 0);
      }
  printf("-- the halo frame (mh) against the plain smooth chain's graph+PDL (no index checks)\n");
  for (int z = 0; z < NSIZE; z++)
    for (int si = 0; si < NS; si++) {
      double f = best_frame(2, z, si), p = pdl_p50[1][z][si], m = best_frame(1, z, si);
      printf("n = %7lld S = %d: smooth graph+PDL %8.2f  m frame %8.2f  mh frame %8.2f  "
             "graph+PDL/mh %5.2fx  m/mh %5.2fx\n", N[z], S[si], p, m, f,
             f > 0 && p > 0 ? p / f : 0, f > 0 ? m / f : 0);
    }
  printf("-- one more dependent stage: (p50 S=8 - p50 S=1) / 7, us\n");
  for (int kind = 0; kind < NKIND; kind++)
    for (int z = 0; z < NSIZE; z++) {
      printf("%-40s n = %7lld:", kind_what[kind], N[z]);
      for (int l = 0; l < NLAYOUT; l++) {
        if (frame_p50[kind][z][3][l] <= 0 || frame_p50[kind][z][0][l] <= 0) continue;
        double per = (frame_p50[kind][z][3][l] - frame_p50[kind][z][0][l]) / 7;
        if (l < 3) printf("  %d blocks %.3f", blocks[l], per);
        else printf("  one block %.3f", per);
      }
      printf("  | graph %.3f  graph+PDL %.3f\n", (graph_p50[kind][z][3] - graph_p50[kind][z][0]) / 7,
             (pdl_p50[kind][z][3] - pdl_p50[kind][z][0]) / 7);
    }
}

int main(int argc, char **argv)
{
  if (argc > 1) iters = atoi(argv[1]);
  if (iters < 100) iters = 100;
  if (gg_context_open(&ctx, NULL)) {
    fprintf(stderr, "no GPU: %s\n", gg_error_detail());
    return 77;
  }
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_frame_bench, &mod));
  gg_stream *stream, *pstream;
  CHECK_OK(gg_stream_open(ctx, &stream));
  CHECK_OK(gg_stream_open(ctx, &pstream));
  int pdl = gg_stream_set_pdl(pstream, 1) == GG_OK;
  if (!pdl) printf("graph+PDL: not run: %s\n", gg_error_detail());
  bench_stats st;
  bench_stats_init(&st, (size_t)iters);
  printf("frame_bench: %d iterations per row; us per frame; %s, %s\n", iters,
         gg_context_device_name(ctx), gg_context_arch(ctx));
  for (int kind = 0; kind < NKIND; kind++) {
    gg_kernel *kern;
    CHECK_OK(gg_kernel_get(mod, kind_kernel[kind], &kern));
    for (int z = 0; z < NSIZE; z++) {
      long long n = N[z];
      gg_array *x, *y;
      CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &x));
      CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &y));
      CHECK_OK(gg_fill_zero(x, NULL));
      CHECK_OK(gg_fill_zero(y, NULL));
      gg_arg xy[3] = {gg_arg_array(x), gg_arg_array(y), gg_arg_i64(n)};
      gg_arg yx[3] = {gg_arg_array(y), gg_arg_array(x), gg_arg_i64(n)};
      printf("-- %s, n = %lld floats\n", kind_what[kind], n);
      printf("%-44s %9s %9s %9s %9s %9s   %s\n", "frame", "mean", "p50", "p99", "p99.9", "max",
             "graph/this graph+PDL/this");
      for (int si = 0; si < NS; si++) {
        int s = S[si];
        bench_stats ls, gs, ps;
        bench_stats_init(&ls, (size_t)iters);
        bench_stats_init(&gs, (size_t)iters);
        bench_stats_init(&ps, (size_t)iters);
        time_launches(kern, kind, s, stream, xy, yx, &ls);
        time_graph(kern, kind, s, stream, stream, xy, yx, &gs);
        graph_p50[kind][z][si] = p50_of(&gs);
        if (pdl) {
          time_graph(kern, kind, s, pstream, stream, xy, yx, &ps);
          pdl_p50[kind][z][si] = p50_of(&ps);
        }
        double g = graph_p50[kind][z][si], p = pdl_p50[kind][z][si];
        row("launch + sync", s, &ls, g, p);
        row("CUDA graph + sync", s, &gs, g, p);
        if (pdl) row("CUDA graph+PDL + sync", s, &ps, g, p);
        bench_stats_free(&ls);
        bench_stats_free(&gs);
        bench_stats_free(&ps);
        time_frames(mod, kind, z, si, xy, &st);
      }
      gg_array_free(x);
      gg_array_free(y);
    }
  }
  summary();
  bench_stats_free(&st);
  gg_stream_free(pstream);
  gg_stream_free(stream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
