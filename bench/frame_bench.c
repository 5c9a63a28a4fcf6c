/*
 * frame_bench.c - S = 1, 2, 4, 8 dependent stages of y = 0.5 y + x over
 * 32K and 1M floats (bench/frame_bench.lua through gpugen at build time),
 * side by side in one process:
 *   launch + sync   S gg_launch of the kernel, then gg_stream_sync
 *   CUDA graph      the same S launches captured once (gg_graph_*), replayed + sync
 *   gpugen frame    one frame of S stages in a persistent kernel: one handshake
 *                   (gg_session_start_packed + gg_session_wait), on 16, 132
 *                   and 264 blocks of 256 threads and, at 32K, one block of 1024
 * Prints mean, p50, p99, p99.9, max (us) and p50 ratio to the graph, then
 * the grid barrier's cost per stage: (p50 at S=8 - p50 at S=1) / 7.
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

#define WAIT_NS 2000000000ll

static gg_context *ctx;
static int iters = 3000;

#define CHECKG(call)                                                                       \
  do {                                                                                     \
    gg_status st_ = (call);                                                                \
    if (st_) {                                                                             \
      fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call, gg_strerror(st_), \
              gg_error_detail());                            \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static double graph_p50[2][4];
static double frame_p50[2][4][4]; /* size, S, layout (16, 132, 264, one block) */

static void row(const char *what, int s, bench_stats *st, double graph)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  char label[96];
  snprintf(label, sizeof label, "S=%d %s", s, what);
  printf("%-44s %9.2f %9.2f %9.2f %9.2f %9.2f   %5.2fx\n", label, r.mean, r.p50, r.p99, r.p999,
         r.max, graph > 0 ? graph / r.p50 : 1.0);
  fflush(stdout);
}

static double p50_of(bench_stats *st)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  return r.p50;
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
  CHECKG(gg_module_load(ctx, &gg_module_frame_bench, &mod));
  gg_kernel *step;
  CHECKG(gg_kernel_get(mod, "step", &step));
  static const int S[4] = {1, 2, 4, 8};
  static const long long N[2] = {32768, 1 << 20};
  static const int blocks[3] = {16, 132, 264};
  gg_stream *stream;
  CHECKG(gg_stream_open(ctx, &stream));
  bench_stats st;
  bench_stats_init(&st, (size_t)iters);
  printf("frame_bench: %d iterations per row; us per frame\n", iters);
  printf("%-44s %9s %9s %9s %9s %9s   %s\n", "frame", "mean", "p50", "p99", "p99.9", "max",
         "graph/this");
  for (int z = 0; z < 2; z++) {
    long long n = N[z];
    gg_array *x, *y;
    CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &x));
    CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &y));
    gg_arg a[3] = {gg_arg_array(x), gg_arg_array(y), gg_arg_i64(n)};
    printf("-- n = %lld floats\n", n);
    for (int si = 0; si < 4; si++) {
      int s = S[si];
      /* launch + sync */
      bench_stats_reset(&st);
      for (int i = 0; i < iters + iters / 10; i++) {
        double t0 = bench_now_us();
        for (int k = 0; k < s; k++) gg_launch(step, stream, a, 3);
        CHECKG(gg_stream_sync(stream));
        if (i >= iters / 10) bench_stats_add(&st, bench_now_us() - t0);
      }
      double launch_p50 = p50_of(&st);
      /* a graph of S launches */
      gg_graph *g;
      CHECKG(gg_graph_capture_begin(stream, &g));
      for (int k = 0; k < s; k++) CHECKG(gg_launch(step, stream, a, 3));
      CHECKG(gg_graph_capture_end(g));
      bench_stats gs;
      bench_stats_init(&gs, (size_t)iters);
      for (int i = 0; i < iters + iters / 10; i++) {
        double t0 = bench_now_us();
        gg_graph_launch(g, stream);
        CHECKG(gg_stream_sync(stream));
        if (i >= iters / 10) bench_stats_add(&gs, bench_now_us() - t0);
      }
      gg_graph_free(g);
      double graph = p50_of(&gs);
      graph_p50[z][si] = graph;
      row("launch + sync", s, &st, graph);
      (void)launch_p50;
      row("CUDA graph + sync", s, &gs, graph);
      bench_stats_free(&gs);
      /* the frame: one handshake */
      char fname[8];
      snprintf(fname, sizeof fname, "s%d", s);
      gg_kernel *fk;
      CHECKG(gg_kernel_get(mod, fname, &fk));
      const gg_kernel_desc *kd = gg_kernel_describe(fk);
      unsigned char packed[128];
      CHECKG(gg_pack_args(kd, a, 3, packed, sizeof packed));
      for (int l = 0; l < 4; l++) {
        if (l == 3 && z == 1) continue; /* 1M on one block: not a fit */
        gg_session_options opt = {0};
        opt.buffering = 1;
        if (l < 3) opt.blocks = blocks[l];
        gg_session *se;
        gg_status ost = gg_session_open(mod, l < 3 ? "whole" : "one", &opt, &se);
        if (ost) {
          printf("S=%d frame %s: not run: %s\n", s, l < 3 ? "many_blocks" : "one_block",
                 gg_error_detail());
          continue;
        }
        int cmd;
        CHECKG(gg_session_command(se, fname, &cmd));
        bench_stats_reset(&st);
        for (int i = 0; i < iters + iters / 10; i++) {
          double t0 = bench_now_us();
          gg_session_start_packed(se, cmd, packed, kd->args_size, NULL);
          gg_status ws = gg_session_wait(se, WAIT_NS);
          if (ws) {
            fprintf(stderr, "frame %s: %s\n", fname, gg_error_detail());
            return 1;
          }
          if (i >= iters / 10) bench_stats_add(&st, bench_now_us() - t0);
        }
        frame_p50[z][si][l] = p50_of(&st);
        char what[64];
        if (l < 3) snprintf(what, sizeof what, "gpugen frame, %d blocks x 256", gg_session_blocks(se));
        else snprintf(what, sizeof what, "gpugen frame, one block x 1024");
        row(what, s, &st, graph);
        CHECKG(gg_session_terminate(se));
        gg_session_free(se);
      }
    }
    gg_array_free(x);
    gg_array_free(y);
  }
  printf("-- grid barrier per stage: (p50 S=8 - p50 S=1) / 7, us (graph: per extra kernel)\n");
  for (int z = 0; z < 2; z++) {
    printf("n = %7lld:", N[z]);
    for (int l = 0; l < 4; l++) {
      if (l == 3 && z == 1) continue;
      if (l < 3) printf("  %d blocks %.3f", blocks[l], (frame_p50[z][3][l] - frame_p50[z][0][l]) / 7);
      else printf("  one block %.3f", (frame_p50[z][3][l] - frame_p50[z][0][l]) / 7);
    }
    printf("  | graph %.3f\n", (graph_p50[z][3] - graph_p50[z][0]) / 7);
  }
  bench_stats_free(&st);
  gg_stream_free(stream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
