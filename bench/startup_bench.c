/*
 * startup_bench - time to make a 10-kernel module ready.
 *
 *   cold:  empty disk cache, NVRTC compiles the module
 *   warm:  new context, same cache folder: load from disk (no compiler)
 *   memory: the same descriptor loaded again in one context
 *   per-kernel NVRTC: each kernel compiled alone
 *
 * usage: startup_bench [csv file]   (default startup_bench.csv)
 * Goal: warm start-up <= 5 ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gg.h"
#include "stats.h"

enum { NK = 10, WARM_RUNS = 30 };

static char srcs[NK][1024];
static char module_src[NK * 1024];
static char names[NK][16], symbols[NK][16];
static gg_param_desc params[NK][4];
static gg_kernel_desc kds[NK];

/* Ten different small kernels: each does a few dependent steps so NVRTC
 * has real work, like a generated element-wise kernel. */
static void make_module(void) {
  module_src[0] = 0;
  for (int k = 0; k < NK; k++) {
    snprintf(names[k], sizeof names[k], "k%d", k);
    snprintf(symbols[k], sizeof symbols[k], "gg_k%d", k);
    snprintf(srcs[k], sizeof srcs[k],
             "struct gg_args_k%d { float a; const float *x; float *y; long long n; };\n"
             "extern \"C\" __global__ void gg_k%d(gg_args_k%d args) {\n"
             "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
             "  if (i >= args.n) return;\n"
             "  float v = args.x[i];\n"
             "  for (int r = 0; r < %d; r++) v = v * args.a + %d.0f / (1.0f + v * v);\n"
             "  args.y[i] = v + args.y[i];\n"
             "}\n", k, k, k, k + 2, k + 1);
    strcat(module_src, srcs[k]);
    gg_param_desc *p = params[k];
    memset(p, 0, sizeof params[k]);
    p[0] = (gg_param_desc){"a", GG_PARAM_SCALAR, GG_F32, 0, {{0, -1}}, 0, 0, 0, 0, 0, 4};
    p[1] = (gg_param_desc){"x", GG_PARAM_VIEW, GG_F32, 1, {{0, 3}}, 0, 0, 0, 0, 8, 8};
    p[2] = (gg_param_desc){"y", GG_PARAM_VIEW, GG_F32, 1, {{0, 3}}, 0, 0, 0, 0, 16, 8};
    p[3] = (gg_param_desc){"n", GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}}, 0, 0, 0, 0, 24, 8};
    gg_kernel_desc *d = &kds[k];
    memset(d, 0, sizeof *d);
    d->name = names[k]; d->symbol = symbols[k]; d->rank = 1; d->range[0].param = 3;
    d->block_size = 256; d->items_per_thread = 1; d->args_size = 32; d->args_align = 8;
    d->nparams = 4; d->params = p;
  }
}

static double load_once(gg_context *ctx, const gg_module_desc *desc, gg_module **m) {
  double t0 = bench_now_us();
  gg_status st = gg_module_load(ctx, desc, m);
  double t = bench_now_us() - t0;
  if (st) {
    fprintf(stderr, "module load: %s: %s\n", gg_strerror(st), gg_error_detail());
    exit(1);
  }
  return t / 1000.0;
}

int main(int argc, char **argv) {
  const char *csv_path = argc > 1 ? argv[1] : "startup_bench.csv";
  char dir[] = "/tmp/gg_startup_bench_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  setenv("GG_CACHE_DIR", dir, 1);
  make_module();
  gg_module_desc desc = {GG_MODULE_ABI, "startup10", "startup10.lua", "bench", module_src, NULL,
                         NULL, NULL, NK, kds, 0, NULL};

  double t0 = bench_now_us();
  gg_context *ctx;
  gg_status st = gg_context_open(&ctx, NULL);
  double open_ms = (bench_now_us() - t0) / 1000.0;
  if (st) {
    printf("no GPU: %s\n", gg_error_detail());
    return 77;
  }
  char device[300];
  snprintf(device, sizeof device, "%s (%s)", gg_context_device_name(ctx), gg_context_arch(ctx));
  printf("startup_bench on %s, cache %s\n\n", device, dir);

  gg_module *m;
  double cold_ms = load_once(ctx, &desc, &m);
  gg_module_info info;
  if (gg_module_info_get(m, &info)) return 1;
  double cold_compile_ms = info.compile_ms;
  gg_module *again;
  double mem_ms = load_once(ctx, &desc, &again);
  gg_module_free(again);
  gg_context_free(ctx);

  bench_stats warm, opens;
  bench_stats_init(&warm, WARM_RUNS);
  bench_stats_init(&opens, WARM_RUNS);
  int all_hits = 1;
  for (int r = 0; r < WARM_RUNS; r++) {
    t0 = bench_now_us();
    if (gg_context_open(&ctx, NULL)) return 1;
    bench_stats_add(&opens, (bench_now_us() - t0) / 1000.0);
    bench_stats_add(&warm, load_once(ctx, &desc, &m));
    if (gg_module_info_get(m, &info)) return 1;
    all_hits &= info.from_disk_cache && !info.opened_compiler;
    gg_context_free(ctx);
  }

  /* per-kernel NVRTC, each kernel alone, same arch and options as the module */
  bench_stats per;
  bench_stats_init(&per, NK);
  if (gg_context_open(&ctx, NULL)) return 1;
  for (int k = 0; k < NK; k++) {
    gg_compile_result res;
    t0 = bench_now_us();
    st = gg_compile(GG_BACKEND_CUDA, gg_context_arch(ctx), "k.cu", srcs[k], NULL, &res);
    bench_stats_add(&per, (bench_now_us() - t0) / 1000.0);
    if (st) fprintf(stderr, "k%d: %s\n%s\n", k, gg_strerror(st), res.log ? res.log : "");
    gg_compile_result_free(&res);
  }
  gg_context_free(ctx);

  bench_summary sw, so, sp;
  bench_stats_summarize(&warm, &sw);
  bench_stats_summarize(&opens, &so);
  bench_stats_summarize(&per, &sp);
  printf("10-kernel module ready:\n");
  printf("  cold (empty cache, NVRTC):   %9.3f ms  (of which compiler %.3f ms)\n", cold_ms, cold_compile_ms);
  printf("  same descriptor again:       %9.3f ms  (in-memory cache)\n", mem_ms);
  printf("  first context open:          %9.3f ms  (driver init, not part of the goal)\n\n", open_ms);
  bench_print_header(stdout, "ms");
  bench_print_row(stdout, "warm module load (disk)", &sw);
  bench_print_row(stdout, "context open (warm)", &so);
  bench_print_row(stdout, "NVRTC per kernel (alone)", &sp);
  printf("\nwarm goal <= 5 ms: %s (p50 %.3f ms, max %.3f ms); every warm load a cache hit "
         "with no compiler opened: %s\n", sw.p50 <= 5.0 ? "met" : "NOT met", sw.p50, sw.max,
         all_hits ? "yes" : "NO");

  FILE *csv = bench_csv_open(csv_path);
  bench_csv_value(csv, "startup", "cold_ms", cold_ms, device);
  bench_csv_value(csv, "startup", "cold_compiler_ms", cold_compile_ms, device);
  bench_csv_value(csv, "startup", "memory_cache_ms", mem_ms, device);
  bench_csv_row(csv, "startup", "warm_ms", &sw, device);
  bench_csv_row(csv, "startup", "context_open_ms", &so, device);
  bench_csv_row(csv, "startup", "nvrtc_per_kernel_ms", &sp, device);
  if (csv) fclose(csv);
  printf("CSV: %s\n", csv_path);

  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) return 1;
  bench_stats_free(&warm); bench_stats_free(&opens); bench_stats_free(&per);
  return 0;
}
