/*
 * session_open_bench - what a persistent session costs besides its
 * frames: gg_session_open (allocation, zeroing, launch, the kernel seen
 * running), one frame, gg_session_terminate (the abort, the kernel seen
 * exiting, the frees) and gg_session_free, each timed around the call on
 * the host's clock, for a one-block kernel and a many-block one (132
 * blocks, or the SM count) of bench/session_open_bench.lua.  Sessions
 * open one after another, as gg_session_tune's bursts do; the first of
 * each kernel is left out (its first launch).
 * Usage: session_open_bench [sessions per row, default 200]
 */
#include <stdio.h>
#include <stdlib.h>

#include "gg.h"
#include "gg_session.h"
#include "session_open_bench.h"
#include "stats.h"

#define CHECK(x)                                                                  \
  do {                                                                            \
    gg_status st_ = (x);                                                          \
    if (st_) {                                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, gg_error_detail()); \
      exit(st_ == GG_ERR_NO_DEVICE ? 77 : 1);                                     \
    }                                                                             \
  } while (0)

enum { N = 32768 };

int main(int argc, char **argv)
{
  const int sessions = argc > 1 ? atoi(argv[1]) : 200;
  if (sessions < 1) {
    fprintf(stderr, "usage: session_open_bench [sessions per row >= 1]\n");
    return 2;
  }
  gg_context *ctx;
  gg_module *mod;
  CHECK(gg_context_open(&ctx, NULL));
  CHECK(gg_module_load(ctx, &gg_module_session_open_bench, &mod));
  gg_array *x, *y;
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, N * sizeof(float), &x));
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, N * sizeof(float), &y));
  const gg_arg args[4] = {gg_arg_f32(2.0f), gg_arg_array(x), gg_arg_array(y), gg_arg_i64(N)};
  printf("session_open_bench on %s: %d sessions a kernel, one after another\n",
         gg_context_device_name(ctx), sessions);
  bench_print_header(stdout, "us");
  const char *kernels[2] = {"one", "whole"};
  for (int k = 0; k < 2; k++) {
    bench_stats open, frame, end, freed;
    bench_stats_init(&open, (size_t)sessions);
    bench_stats_init(&frame, (size_t)sessions);
    bench_stats_init(&end, (size_t)sessions);
    bench_stats_init(&freed, (size_t)sessions);
    for (int i = 0; i <= sessions; i++) {
      gg_session_options o = {0};
      o.blocks = k ? gg_context_sm_count(ctx) : 0;
      gg_session *s;
      int cmd;
      double t0 = bench_now_us();
      CHECK(gg_session_open(mod, kernels[k], &o, &s));
      double t1 = bench_now_us();
      CHECK(gg_session_command(s, "step", &cmd));
      CHECK(gg_session_run(s, cmd, args, 4, 2000000000ll));
      double t2 = bench_now_us();
      CHECK(gg_session_terminate(s));
      double t3 = bench_now_us();
      gg_session_free(s);
      double t4 = bench_now_us();
      if (i == 0) continue; /* the kernel's first launch */
      bench_stats_add(&open, t1 - t0);
      bench_stats_add(&frame, t2 - t1);
      bench_stats_add(&end, t3 - t2);
      bench_stats_add(&freed, t4 - t3);
    }
    const char *what[4] = {"open", "first frame", "terminate", "free"};
    bench_stats *all[4] = {&open, &frame, &end, &freed};
    for (int w = 0; w < 4; w++) {
      char label[64];
      bench_summary r;
      snprintf(label, sizeof label, "%s: %s", kernels[k], what[w]);
      bench_stats_summarize(all[w], &r);
      bench_print_row(stdout, label, &r);
      bench_stats_free(all[w]);
    }
  }
  gg_array_free(x);
  gg_array_free(y);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
