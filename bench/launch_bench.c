/*
 * launch_bench - gg_launch against a bare cuLaunchKernel on the same
 * function, same stream, same run, interleaved sample by sample so drift
 * (clocks, other tenants) hits both alike.
 *
 *   launch call:  host time of the call alone (queue kept short by a sync
 *                 every 64 launches, outside the timed region)
 *   launch+sync:  launch then stream synchronize (the classic frame)
 *
 * usage: launch_bench [iterations] [csv file]
 * Goal: gg_launch within 5 % of cuLaunchKernel.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "stats.h"

typedef int (*launch_fn)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, void *, void **, void **);

static const char *src =
  "struct gg_args_nop { float a; float *y; long long n; };\n"
  "extern \"C\" __global__ void gg_nop(gg_args_nop args) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < args.n && args.a < 0) args.y[i] = args.a;\n"
  "}\n";
static const gg_param_desc params[] = {
  {"a", GG_PARAM_SCALAR, GG_F32, 0, {{0, -1}}, 0, 0, 0, 0, 0, 4},
  {"y", GG_PARAM_VIEW, GG_F32, 1, {{0, 2}}, 0, 0, 0, 0, 8, 8},
  {"n", GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}}, 0, 0, 0, 0, 16, 8}};
static const gg_kernel_desc kd = {.name = "nop", .symbol = "gg_nop", .rank = 1,
  .range = {{0, 2}}, .block_size = 256, .items_per_thread = 1, .args_size = 24,
  .args_align = 8, .nparams = 3, .params = params};

#define CHECKG(call) do { gg_status st_ = (call); if (st_) { fprintf(stderr, "%s: %s: %s\n", #call, gg_strerror(st_), gg_error_detail()); return 1; } } while (0)

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 20000;
  const char *csv_path = argc > 2 ? argv[2] : "launch_bench.csv";
  if (iters < 64) iters = 64;
  gg_context *ctx;
  if (gg_context_open(&ctx, NULL)) {
    printf("no GPU: %s\n", gg_error_detail());
    return 77;
  }
  if (gg_context_backend(ctx) != GG_BACKEND_CUDA) {
    printf("launch_bench compares with cuLaunchKernel: CUDA only\n");
    return 77;
  }
  void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  launch_fn cu_launch = libcuda ? (launch_fn)dlsym(libcuda, "cuLaunchKernel") : NULL;
  int (*cu_sync)(void *) = libcuda ? (int (*)(void *))dlsym(libcuda, "cuStreamSynchronize") : NULL;
  if (!cu_launch || !cu_sync) return 1;

  gg_module_desc desc = {GG_MODULE_ABI, "launch", "launch.lua", "bench", src, NULL, NULL, NULL,
                         1, &kd, 0, NULL};
  gg_module *m;
  gg_kernel *k;
  gg_stream *s;
  gg_array *y;
  const long long n = 1000;
  CHECKG(gg_module_load(ctx, &desc, &m));
  CHECKG(gg_kernel_get(m, "nop", &k));
  CHECKG(gg_stream_open(ctx, &s));
  CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, n * sizeof(float), &y));
  gg_arg args[] = {gg_arg_f32(1.0f), gg_arg_array(y), gg_arg_i64(n)};
  /* what gg_launch does, done once by hand for the bare call */
  unsigned char packed[24] __attribute__((aligned(16)));
  if (gg_pack_args(&kd, args, 3, packed, sizeof packed)) return 1;
  void *kparams[] = {packed};
  void *fn = gg_kernel_native_function(k), *stream = gg_stream_native(s);
  unsigned grid = (unsigned)((n + 255) / 256);

  for (int i = 0; i < 1000; i++) { /* warm-up */
    gg_launch(k, s, args, 3);
    cu_launch(fn, grid, 1, 1, 256, 1, 1, 0, stream, kparams, NULL);
  }
  gg_stream_sync(s);

  bench_stats g_call, b_call, g_rt, b_rt;
  bench_stats_init(&g_call, iters); bench_stats_init(&b_call, iters);
  bench_stats_init(&g_rt, iters / 4); bench_stats_init(&b_rt, iters / 4);
  int bad = 0;
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    bad |= gg_launch(k, s, args, 3);
    double t1 = bench_now_us();
    bad |= cu_launch(fn, grid, 1, 1, 256, 1, 1, 0, stream, kparams, NULL);
    double t2 = bench_now_us();
    /* alternate which goes first so neither always follows the other */
    if (i & 1) { bench_stats_add(&g_call, t1 - t0); bench_stats_add(&b_call, t2 - t1); }
    else {
      t0 = bench_now_us();
      bad |= cu_launch(fn, grid, 1, 1, 256, 1, 1, 0, stream, kparams, NULL);
      t1 = bench_now_us();
      bad |= gg_launch(k, s, args, 3);
      t2 = bench_now_us();
      bench_stats_add(&b_call, t1 - t0); bench_stats_add(&g_call, t2 - t1);
    }
    if ((i & 63) == 63) gg_stream_sync(s);
  }
  gg_stream_sync(s);
  for (int i = 0; i < iters / 4; i++) {
    double t0 = bench_now_us();
    bad |= gg_launch(k, s, args, 3);
    bad |= gg_stream_sync(s);
    double t1 = bench_now_us();
    bad |= cu_launch(fn, grid, 1, 1, 256, 1, 1, 0, stream, kparams, NULL);
    bad |= cu_sync(stream);
    double t2 = bench_now_us();
    bench_stats_add(&g_rt, t1 - t0);
    bench_stats_add(&b_rt, t2 - t1);
  }
  if (bad) fprintf(stderr, "some launches failed: %s\n", gg_error_detail());

  char device[300];
  snprintf(device, sizeof device, "%s (%s)", gg_context_device_name(ctx), gg_context_arch(ctx));
  bench_summary r[4];
  bench_stats_summarize(&g_call, &r[0]); bench_stats_summarize(&b_call, &r[1]);
  bench_stats_summarize(&g_rt, &r[2]); bench_stats_summarize(&b_rt, &r[3]);
  printf("launch_bench on %s, %d interleaved samples (round trips: %d)\n\n", device, iters, iters / 4);
  bench_print_header(stdout, "us");
  const char *labels[] = {"gg_launch call", "cuLaunchKernel call", "gg_launch + sync", "cuLaunchKernel + sync"};
  for (int i = 0; i < 4; i++) bench_print_row(stdout, labels[i], &r[i]);
  double ratio_call = r[0].mean / r[1].mean, ratio_p50 = r[0].p50 / r[1].p50;
  double ratio_rt = r[2].mean / r[3].mean;
  printf("\nratio gg/bare: call mean %.3f, call p50 %.3f, launch+sync mean %.3f (goal <= 1.05)\n",
         ratio_call, ratio_p50, ratio_rt);
  FILE *csv = bench_csv_open(csv_path);
  const char *keys[] = {"gg_launch_call_us", "cuLaunchKernel_call_us", "gg_launch_sync_us", "cuLaunchKernel_sync_us"};
  for (int i = 0; i < 4; i++) bench_csv_row(csv, "launch", keys[i], &r[i], device);
  bench_csv_value(csv, "launch", "ratio_call_mean", ratio_call, device);
  bench_csv_value(csv, "launch", "ratio_call_p50", ratio_p50, device);
  bench_csv_value(csv, "launch", "ratio_sync_mean", ratio_rt, device);
  if (csv) fclose(csv);
  printf("CSV: %s\n", csv_path);
  gg_array_free(y);
  gg_stream_free(s);
  gg_context_free(ctx);
  return 0;
}
