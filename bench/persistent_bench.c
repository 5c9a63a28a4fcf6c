/*
 * persistent_bench - CuPer's table on this GPU: for each workload, in one
 * process and one run, classic launch + synchronize, CUDA graph +
 * synchronize, and gpugen persistent sessions in the layouts that fit;
 * plus the bare-handshake floor (a minimal one-warp loop on the same kind
 * of mailbox) and the sustained frame rate of a ring against back-to-back
 * launches and graphs.
 *
 * usage: persistent_bench [iterations (50000)] [markdown file] [csv file] [histogram csv]
 *
 * The workloads' kernels come from tests/persistent/handmade.c: bodies in
 * the generator's conventions, persistent loops rendered by the real
 * emitter.  The comparison rows launch the same bodies through their
 * __global__ wrappers with cuLaunchKernel.  Device-side launch (CDP) is
 * not measured: see bench/RESULTS.md.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "stats.h"

#ifndef GG_HAVE_HANDMADE
int main(void)
{
  printf("persistent_bench needs tests/persistent (configure with GG_BUILD_TESTS=ON)\n");
  return 77;
}
#else
#include "handmade.h"

typedef int (*cu_launch_t)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, void *, void **, void **);
static struct {
  cu_launch_t launch;
  int (*sync)(void *);
  int (*stream_create)(void **, unsigned);
  int (*begin)(void *, int);
  int (*end)(void *, void **);
  int (*instantiate)(void **, void *, unsigned long long);
  int (*graph_launch)(void *, void *);
} cu;

static const hm_persistent bench_layouts[] = {
  {"b_empty", GG_PLAYOUT_ONE_BLOCK, 32, 1, 0, 1, {HM_EMPTY}},
  {"b_empty_many", GG_PLAYOUT_MANY_BLOCKS, 32, 4, 0, 1, {HM_EMPTY}},
  {"b_empty_groups", GG_PLAYOUT_THREAD_GROUPS, 128, 1, 4, 1, {HM_EMPTY}},
  {"b_inc_one", GG_PLAYOUT_ONE_BLOCK, 1024, 1, 0, 1, {HM_INC}},
  {"b_inc_many", GG_PLAYOUT_MANY_BLOCKS, 256, 16, 0, 1, {HM_INC}},
  {"b_inc_hybrid", GG_PLAYOUT_HYBRID, 512, 8, 2, 1, {HM_INC}},
  {"b_mm_one", GG_PLAYOUT_ONE_BLOCK, 1024, 1, 0, 1, {HM_MATMUL}},
  {"b_mm_many", GG_PLAYOUT_MANY_BLOCKS, 256, 16, 0, 1, {HM_MATMUL}},
  {"b_sum_one", GG_PLAYOUT_ONE_BLOCK, 1024, 1, 0, 1, {HM_SUM}},
  {"b_sum_256", GG_PLAYOUT_ONE_BLOCK, 256, 1, 0, 1, {HM_SUM}},
};
#define NB ((int)(sizeof bench_layouts / sizeof bench_layouts[0]))

/* The floor: one warp, one poll, one release store, nothing else. */
static const char floor_src[] =
  "struct gg_args_floor { unsigned long long *seq, *done; };\n"
  "extern \"C\" __global__ void gg_floor(gg_args_floor a) {\n"
  "  if (threadIdx.x) return;\n"
  "  for (unsigned long long f = 1;; ++f) {\n"
  "    unsigned long long s;\n"
  "    do asm volatile(\"ld.acquire.sys.u64 %0, [%1];\" : \"=l\"(s) : \"l\"(a.seq) : \"memory\");\n"
  "    while (s < f);\n"
  "    if (s == ~0ull) return;\n"
  "    asm volatile(\"st.release.sys.u64 [%0], %1;\" :: \"l\"(a.done), \"l\"(f) : \"memory\");\n"
  "  }\n"
  "}\n";
static const gg_kernel_desc floor_kd = {.name = "floor", .symbol = "gg_floor", .rank = 1,
  .range = {{1, -1}}, .block_size = 32, .items_per_thread = 1, .args_size = 16,
  .args_align = 8};

typedef struct row {
  char workload[24], mode[64];
  bench_summary r;
} row;
static row rows[128];
static int nrows;
static int iters;
static gg_context *ctx;
static const char *hist_path;

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define CHECKG(call) do { gg_status st_ = (call); if (st_) DIE("%s: %s: %s", #call, gg_strerror(st_), gg_error_detail()); } while (0)
#define CHECKCU(call) do { int r_ = (call); if (r_) DIE("%s: CUDA error %d", #call, r_); } while (0)

static void add_row(const char *w, const char *mode, bench_stats *s)
{
  row *r = &rows[nrows++];
  snprintf(r->workload, sizeof r->workload, "%s", w);
  snprintf(r->mode, sizeof r->mode, "%s", mode);
  bench_stats_summarize(s, &r->r);
  printf("%-12s %-34s mean %8.2f  p50 %8.2f  p99 %8.2f  p99.99 %8.2f  max %8.2f us\n", w, mode,
         r->r.mean, r->r.p50, r->r.p99, r->r.p9999, r->r.max);
  fflush(stdout);
}

static void launch_rows(const char *w, gg_module *mod, int kernel, unsigned grid,
                        unsigned block, unsigned smem, void *args, void *stream)
{
  gg_kernel *k;
  CHECKG(gg_kernel_get(mod, hm_kernel_name(kernel), &k));
  void *fn = gg_kernel_native_function(k);
  void *params[] = {args};
  bench_stats s;
  bench_stats_init(&s, (size_t)iters);
  for (int i = 0; i < iters / 10; i++) { /* warm-up */
    CHECKCU(cu.launch(fn, grid, 1, 1, block, 1, 1, smem, stream, params, NULL));
    CHECKCU(cu.sync(stream));
  }
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    cu.launch(fn, grid, 1, 1, block, 1, 1, smem, stream, params, NULL);
    cu.sync(stream);
    bench_stats_add(&s, bench_now_us() - t0);
  }
  add_row(w, "launch + sync", &s);
  bench_stats_reset(&s);
  void *graph, *exec;
  CHECKCU(cu.begin(stream, 2 /* relaxed capture */));
  CHECKCU(cu.launch(fn, grid, 1, 1, block, 1, 1, smem, stream, params, NULL));
  CHECKCU(cu.end(stream, &graph));
  CHECKCU(cu.instantiate(&exec, graph, 0));
  for (int i = 0; i < iters / 10; i++) {
    CHECKCU(cu.graph_launch(exec, stream));
    CHECKCU(cu.sync(stream));
  }
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    cu.graph_launch(exec, stream);
    cu.sync(stream);
    bench_stats_add(&s, bench_now_us() - t0);
  }
  add_row(w, "CUDA graph + sync", &s);
  bench_stats_free(&s);
}

static void session_row(const char *w, gg_module *mod, const char *pname, const void *args,
                        size_t size)
{
  gg_session *se;
  gg_session_options opt = {.buffering = 1, .stats_frames = (uint64_t)iters};
  gg_status st = gg_session_open(mod, pname, &opt, &se);
  if (st) {
    printf("%-12s %-34s not run: %s\n", w, pname, gg_error_detail());
    return;
  }
  bench_stats s;
  bench_stats_init(&s, (size_t)iters);
  for (int i = 0; i < iters / 10; i++) {
    CHECKG(gg_session_start_packed(se, 0, args, size, NULL));
    CHECKG(gg_session_wait(se, 1000000000));
  }
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    gg_session_start_packed(se, 0, args, size, NULL);
    gg_status ws = gg_session_wait(se, 1000000000);
    bench_stats_add(&s, bench_now_us() - t0);
    if (ws)
      DIE("%s: %s", pname, gg_error_detail());
  }
  char mode[64];
  const hm_persistent *h = NULL;
  for (int i = 0; i < NB; i++)
    if (strcmp(bench_layouts[i].name, pname) == 0)
      h = &bench_layouts[i];
  static const char *ln[] = {"one_block", "many_blocks", "thread_groups", "hybrid"};
  if (h->groups > 1)
    snprintf(mode, sizeof mode, "gpugen %s %dx%d, %d groups", ln[h->layout],
             gg_session_blocks(se), h->block, h->groups);
  else
    snprintf(mode, sizeof mode, "gpugen %s %dx%d", ln[h->layout], gg_session_blocks(se),
             h->block);
  add_row(w, mode, &s);
  if (hist_path && strcmp(pname, "b_empty") == 0) { /* the session's own statistics */
    gg_stats gs;
    FILE *hf = fopen(hist_path, "w");
    if (gg_session_stats(se, &gs) == GG_OK && hf &&
        gg_session_histogram_csv(se, hf, 100) == GG_OK)
      printf("%-12s session statistics: %llu frames, p50 %.2f us, p99.99 %.2f us; histogram "
             "in %s\n", w, (unsigned long long)gs.count, gs.p50_ns / 1e3, gs.p9999_ns / 1e3,
             hist_path);
    if (hf)
      fclose(hf);
  }
  CHECKG(gg_session_terminate(se));
  gg_session_free(se);
  bench_stats_free(&s);
}

/* The bare handshake: host release-stores seq, the warp acquires it and
 * release-stores done, the host acquires done. */
static void floor_row(void *stream)
{
  gg_module_desc d = {GG_MODULE_ABI, "floor", "floor", "bench", floor_src, NULL, NULL, NULL,
                      1, &floor_kd, 0, NULL};
  gg_module *m;
  CHECKG(gg_module_load(ctx, &d, &m));
  gg_kernel *k;
  CHECKG(gg_kernel_get(m, "floor", &k));
  gg_array *box;
  CHECKG(gg_array_alloc(ctx, GG_SPACE_MAPPED, 256, &box));
  volatile unsigned long long *h = gg_array_host(box);
  h[0] = 0;
  h[16] = 0;
  char *dev = gg_array_native(box);
  struct { void *seq, *done; } args = {dev, dev + 128};
  void *params[] = {&args};
  CHECKCU(cu.launch(gg_kernel_native_function(k), 1, 1, 1, 32, 1, 1, 0, stream, params, NULL));
  _Atomic unsigned long long *seq = (_Atomic unsigned long long *)(void *)h;
  _Atomic unsigned long long *done = (_Atomic unsigned long long *)(void *)(h + 16);
  bench_stats s;
  bench_stats_init(&s, (size_t)iters);
  unsigned long long f = 0;
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    ++f;
    __atomic_store_n((unsigned long long *)seq, f, __ATOMIC_RELEASE);
    while (__atomic_load_n((unsigned long long *)done, __ATOMIC_ACQUIRE) != f)
      ;
    if (i >= iters / 10)
      bench_stats_add(&s, bench_now_us() - t0);
  }
  __atomic_store_n((unsigned long long *)seq, ~0ull, __ATOMIC_RELEASE);
  CHECKCU(cu.sync(stream));
  add_row("handshake", "bare one-warp loop (floor)", &s);
  bench_stats_free(&s);
  gg_array_free(box);
  gg_module_free(m);
}

static gg_array *dev_array(size_t bytes, float value)
{
  gg_array *a;
  CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &a));
  float *h = malloc(bytes);
  for (size_t i = 0; i < bytes / 4; i++)
    h[i] = value * (float)(i % 7);
  CHECKG(gg_copy_from_host(a, 0, h, bytes, NULL));
  free(h);
  return a;
}

/* Sustained frames per second of empty frames: ring of 8 vs back-to-back. */
static void throughput(gg_module *mod, void *stream)
{
  int n = iters;
  gg_session *se;
  gg_session_options opt = {.buffering = 8};
  CHECKG(gg_session_open(mod, "b_empty", &opt, &se));
  hm_empty_args ea = {0};
  double t0 = bench_now_us();
  for (int i = 0; i < n; i++) {
    if (gg_session_started(se) - gg_session_completed(se) == 8)
      CHECKG(gg_session_wait(se, 1000000000));
    CHECKG(gg_session_start_packed(se, 0, &ea, sizeof ea, NULL));
  }
  while (gg_session_completed(se) < gg_session_started(se))
    CHECKG(gg_session_wait(se, 1000000000));
  double ring = n / ((bench_now_us() - t0) * 1e-6);
  gg_session_free(se);
  gg_kernel *k;
  CHECKG(gg_kernel_get(mod, "empty", &k));
  void *fn = gg_kernel_native_function(k);
  void *params[] = {&ea};
  t0 = bench_now_us();
  for (int i = 0; i < n; i++)
    cu.launch(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL);
  cu.sync(stream);
  double launches = n / ((bench_now_us() - t0) * 1e-6);
  void *graph, *exec;
  CHECKCU(cu.begin(stream, 2));
  CHECKCU(cu.launch(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL));
  CHECKCU(cu.end(stream, &graph));
  CHECKCU(cu.instantiate(&exec, graph, 0));
  t0 = bench_now_us();
  for (int i = 0; i < n; i++)
    cu.graph_launch(exec, stream);
  cu.sync(stream);
  double graphs = n / ((bench_now_us() - t0) * 1e-6);
  printf("\nsustained empty frames per second (%d frames): ring of 8 slots %.0f, back-to-back "
         "launches %.0f, back-to-back graph launches %.0f\n", n, ring, launches, graphs);
}

int main(int argc, char **argv)
{
  iters = argc > 1 ? atoi(argv[1]) : 50000;
  if (iters < 100)
    iters = 100;
  const char *md_path = argc > 2 ? argv[2] : NULL;
  hist_path = argc > 4 ? argv[4] : NULL;
  if (gg_context_open(&ctx, NULL)) {
    printf("no GPU: %s\n", gg_error_detail());
    return 77;
  }
  if (gg_context_backend(ctx) != GG_BACKEND_CUDA) {
    printf("persistent_bench compares with CUDA launches and graphs: CUDA only\n");
    return 77;
  }
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    DIE("libcuda.so.1: %s", dlerror());
  cu.launch = (cu_launch_t)dlsym(lib, "cuLaunchKernel");
  cu.sync = (int (*)(void *))dlsym(lib, "cuStreamSynchronize");
  cu.stream_create = (int (*)(void **, unsigned))dlsym(lib, "cuStreamCreate");
  cu.begin = (int (*)(void *, int))dlsym(lib, "cuStreamBeginCapture_v2");
  cu.end = (int (*)(void *, void **))dlsym(lib, "cuStreamEndCapture");
  cu.instantiate = (int (*)(void **, void *, unsigned long long))dlsym(lib, "cuGraphInstantiateWithFlags");
  cu.graph_launch = (int (*)(void *, void *))dlsym(lib, "cuGraphLaunch");
  if (!cu.launch || !cu.sync || !cu.stream_create || !cu.begin || !cu.end || !cu.instantiate ||
      !cu.graph_launch)
    DIE("libcuda lacks an entry point this bench needs");
  FILE *csv = bench_csv_open(argc > 3 ? argv[3] : "persistent_bench.csv");
  printf("real-time: %s; ", gg_rt_pin_cpu(2) ? gg_error_detail() : "pinned to CPU 2");
  printf("%s\n", gg_rt_fifo(50) ? gg_error_detail() : "SCHED_FIFO");
  printf("device: %s (%s), %d SMs; %d iterations per row\n\n", gg_context_device_name(ctx),
         gg_context_arch(ctx), gg_context_sm_count(ctx), iters);

  char err[1024];
  const gg_module_desc *md = hm_module(bench_layouts, NB, err, sizeof err);
  if (!md)
    DIE("module: %s", err);
  gg_module *mod;
  CHECKG(gg_module_load(ctx, md, &mod));
  void *stream;
  CHECKCU(cu.stream_create(&stream, 1 /* non-blocking */));

  floor_row(stream);
  hm_empty_args ea = {0};
  launch_rows("empty", mod, HM_EMPTY, 1, 32, 0, &ea, stream);
  session_row("empty", mod, "b_empty", &ea, sizeof ea);
  session_row("empty", mod, "b_empty_many", &ea, sizeof ea);
  session_row("empty", mod, "b_empty_groups", &ea, sizeof ea);

  gg_array *x = dev_array(32768 * 4, 1.0f);
  hm_inc_args ia = {gg_array_native(x), 32768};
  launch_rows("inc 32K", mod, HM_INC, 128, 256, 0, &ia, stream);
  session_row("inc 32K", mod, "b_inc_one", &ia, sizeof ia);
  session_row("inc 32K", mod, "b_inc_many", &ia, sizeof ia);
  session_row("inc 32K", mod, "b_inc_hybrid", &ia, sizeof ia);

  gg_array *A = dev_array(128 * 128 * 4, 0.5f), *B = dev_array(128 * 128 * 4, 0.25f),
           *C = dev_array(128 * 128 * 4, 0.0f);
  const int sizes[] = {32, 64, 128};
  for (int i = 0; i < 3; i++) {
    int n = sizes[i];
    char w[32];
    snprintf(w, sizeof w, "matmul %dx%d", n, n);
    hm_matmul_args ma = {gg_array_native(A), gg_array_native(B), gg_array_native(C), n};
    launch_rows(w, mod, HM_MATMUL, (unsigned)((n * n + 255) / 256), 256, 0, &ma, stream);
    session_row(w, mod, "b_mm_one", &ma, sizeof ma);
    session_row(w, mod, "b_mm_many", &ma, sizeof ma);
  }

  gg_array *out = dev_array(64, 0.0f);
  const int sums[] = {1024, 32768};
  for (int i = 0; i < 2; i++) {
    char w[32];
    snprintf(w, sizeof w, "sum %dK", sums[i] / 1024);
    hm_sum_args sa = {gg_array_native(x), gg_array_native(out), sums[i]};
    launch_rows(w, mod, HM_SUM, 1, 1024, 8192, &sa, stream);
    session_row(w, mod, "b_sum_one", &sa, sizeof sa);
    session_row(w, mod, "b_sum_256", &sa, sizeof sa);
  }

  throughput(mod, stream);

  /* The table, with ratios of means against launch + sync. */
  FILE *mdf = md_path ? fopen(md_path, "w") : NULL;
  FILE *outs[2] = {stdout, mdf};
  for (int o = 0; o < 2; o++) {
    FILE *f = outs[o];
    if (!f)
      continue;
    fprintf(f, "\n| workload | mode | mean | p50 | p99 | p99.9 | p99.99 | max | jitter | "
               "mean vs launch+sync |\n|---|---|---|---|---|---|---|---|---|---|\n");
    double base = 0;
    for (int i = 0; i < nrows; i++) {
      const row *r = &rows[i];
      if (strcmp(r->mode, "launch + sync") == 0)
        base = r->r.mean;
      if (strcmp(r->workload, "handshake") == 0)
        base = 0;
      char ratio[32] = "-";
      if (base > 0)
        snprintf(ratio, sizeof ratio, "%.2fx", base / r->r.mean);
      fprintf(f, "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n",
              r->workload, r->mode, r->r.mean, r->r.p50, r->r.p99, r->r.p999, r->r.p9999,
              r->r.max, r->r.jitter, ratio);
    }
    fprintf(f, "\n(microseconds; ratio = launch+sync mean / this mean, higher is better)\n");
  }
  if (mdf)
    fclose(mdf);
  for (int i = 0; csv && i < nrows; i++) {
    char label[sizeof rows[i].workload + sizeof rows[i].mode + 4];
    snprintf(label, sizeof label, "%.*s | %.*s", (int)sizeof rows[i].workload, rows[i].workload,
             (int)sizeof rows[i].mode, rows[i].mode);
    bench_csv_row(csv, "persistent", label, &rows[i].r, gg_context_device_name(ctx));
  }
  if (csv)
    fclose(csv);
  gg_module_free(mod);
  gg_context_free(ctx);
  hm_module_free(md);
  return 0;
}
#endif
