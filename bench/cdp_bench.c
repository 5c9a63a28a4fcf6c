/*
 * cdp_bench.c - device-side launch (CuPer's CDP variant) against
 * launch + sync, measured in the same process on the same kernels.
 *
 * usage: cdp_bench [iterations (20000)] [markdown file]
 *
 * Per workload (empty frame, 32K increment, 1K sum), two rows:
 *   launch + sync   the host launches the child kernel and syncs its stream
 *   CDP             a one-thread persistent parent (templates/cuda/cdp.cuh)
 *                   polls the host-mapped mailbox and launches the same
 *                   child with cudaStreamFireAndForget; the child's last
 *                   block release-stores `done`, where the host waits
 * One sample = post (or launch) to seeing the frame done, in microseconds.
 * Every sum frame's result is checked against the known value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp_host.h"
#include "gg.h"
#include "stats.h"

#define N_INC 32768
#define N_SUM 1024
#define WARMUP 1000

typedef struct row {
  const char *workload, *mode;
  bench_summary r;
} row;

static row rows[12];
static int nrows;
static long long incs;     /* increments applied so far: x[i] = 1 + incs */
static long long bad_sums;

static void check_sum(const cdp_loop *L) {
  if (cdp_sum_result(L) != (long long)N_SUM * (1 + incs)) bad_sums++;
}

static const char *const modes[] = {"launch + sync", "CDP, long-lived parent",
                                    "CDP, tail-relaunched parent"};

/* cdp: 0 host launch + sync, 1 long-lived parent, 2 tail-relaunched */
static int measure(cdp_loop *L, const char *workload, int cmd, int cdp, int iters) {
  bench_stats s;
  if (bench_stats_init(&s, (size_t)iters)) return -1;
  for (int i = 0; i < WARMUP + iters; i++) {
    double t0 = bench_now_us();
    gg_status st = cdp ? cdp_frame(L, cmd, 2000) : cdp_host_frame(L, cmd);
    double t1 = bench_now_us();
    if (st) {
      fprintf(stderr, "cdp_bench: %s (%s): %s: %s\n", workload, modes[cdp], gg_strerror(st),
              L->err);
      bench_stats_free(&s);
      return -1;
    }
    if (cmd == CDP_INC) incs++;
    if (cmd == CDP_SUM) check_sum(L);
    if (i >= WARMUP) bench_stats_add(&s, t1 - t0);
  }
  row *r = &rows[nrows++];
  r->workload = workload;
  r->mode = modes[cdp];
  bench_stats_summarize(&s, &r->r);
  bench_stats_free(&s);
  return 0;
}

static void print_table(FILE *f) {
  fprintf(f, "\n| workload | mode | mean | p50 | p99 | p99.9 | p99.99 | max | jitter | "
             "mean vs launch+sync |\n|---|---|---|---|---|---|---|---|---|---|\n");
  double base = 0;
  for (int i = 0; i < nrows; i++) {
    const row *r = &rows[i];
    if (!strcmp(r->mode, "launch + sync")) base = r->r.mean;
    char ratio[32] = "-";
    if (base > 0) snprintf(ratio, sizeof ratio, "%.2fx", base / r->r.mean);
    fprintf(f, "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", r->workload,
            r->mode, r->r.mean, r->r.p50, r->r.p99, r->r.p999, r->r.p9999, r->r.max, r->r.jitter,
            ratio);
  }
  fprintf(f, "\n(microseconds; ratio = launch+sync mean / this mean, higher is better)\n");
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 20000;
  if (iters <= 0) iters = 20000;
  gg_context *ctx;
  gg_status st = gg_context_open(&ctx, NULL);
  if (st) {
    printf("cdp_bench: no GPU: %s\n", gg_error_detail());
    return st == GG_ERR_NO_LIBRARY || st == GG_ERR_NO_DEVICE ? 0 : 1;
  }
  printf("device: %s (%s), %d SMs; %d iterations per row (+%d warm-up)\n",
         gg_context_device_name(ctx), gg_context_arch(ctx), gg_context_sm_count(ctx), iters,
         WARMUP);
  static int ones[N_INC];
  for (int i = 0; i < N_INC; i++) ones[i] = 1;
  cdp_loop L;
  double t0 = bench_now_us();
  st = cdp_open(&L, ctx, ones, N_INC, N_INC, N_SUM);
  if (st) {
    fprintf(stderr, "cdp_bench: open: %s: %s\n", gg_strerror(st), L.err);
    cdp_close(&L);
    gg_context_free(ctx);
    return 1;
  }
  printf("module: NVRTC -rdc + nvJitLink (or cache) in %.1f ms\n", (bench_now_us() - t0) / 1e3);
  static const struct { const char *name; int cmd; } work[] = {
    {"empty frame", CDP_EMPTY}, {"32K increment", CDP_INC}, {"1K sum", CDP_SUM}};
  int failed = 0;
  /* launch + sync first: the parent must not run yet (it would see the
   * host-launched children's frames as nothing, but it polls PCIe) */
  for (int w = 0; w < 3 && !failed; w++) {
    failed |= measure(&L, work[w].name, work[w].cmd, 0, iters) != 0;
    for (int tail = 0; tail < 2 && !failed; tail++) {
      if ((st = cdp_start(&L, tail))) {
        fprintf(stderr, "cdp_bench: parent: %s: %s\n", gg_strerror(st), L.err);
        failed = 1;
      }
      if (!failed) failed |= measure(&L, work[w].name, work[w].cmd, 1 + tail, iters) != 0;
      if (!failed && (st = cdp_stop(&L))) {
        fprintf(stderr, "cdp_bench: stop: %s: %s\n", gg_strerror(st), L.err);
        failed = 1;
      }
    }
  }
  print_table(stdout);
  printf("sum frames with a wrong result: %lld\n", bad_sums);
  if (argc > 2) {
    FILE *f = fopen(argv[2], "w");
    if (f) {
      fprintf(f, "device: %s (%s); %d iterations per row\n", gg_context_device_name(ctx),
              gg_context_arch(ctx), iters);
      print_table(f);
      fclose(f);
    }
  }
  st = cdp_close(&L);
  gg_context_free(ctx);
  return failed || bad_sums || st ? 1 : 0;
}
