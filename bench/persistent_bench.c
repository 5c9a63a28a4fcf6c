/*
 * persistent_bench - CuPer's table on this GPU, through the real pipeline
 * (bench/persistent_bench.lua -> gpugen at build time -> libgg): for each
 * workload, in one process and one run, side by side:
 *   launch + sync    gg_launch of the kernel, then gg_stream_sync
 *   CUDA graph       the same launch captured once (gg_graph_*), replayed + sync
 *   gpugen ...       a frame of the kernel as a command of a persistent
 *                    kernel, one row per layout that fits it (one block,
 *                    16 blocks, the whole GPU, thread groups, hybrid):
 *                    gg_session_start_packed + gg_session_wait
 * plus the bare-handshake floor (a one-warp loop on a mapped mailbox, the
 * least a frame can cost, timed in turn with the empty frame) and the sustained frame rate of a ring of 8
 * slots against back-to-back launches and graph launches.
 *
 * usage: persistent_bench [iterations (50000)] [markdown file] [csv file] [histogram csv]
 *
 * Every workload's result is checked against a CPU reference after its
 * rows, so a broken kernel cannot post a fast time.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "persistent_bench.h"
#include "stats.h"

#define WAIT_NS 1000000000ll

typedef struct row {
  char workload[24], mode[64];
  bench_summary r;
} row;
static row rows[128];
static int nrows;
static int iters;
static gg_context *ctx;
static gg_module *mod;
static gg_stream *stream;
static const char *hist_path;
static float last_result; /* the last frame's result, of a frame that has one */

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define CHECKG(call) do { gg_status st_ = (call); if (st_) DIE("%s: %s: %s", #call, gg_strerror(st_), gg_error_detail()); } while (0)
#define CHECKCU(call) do { int r_ = (call); if (r_) DIE("%s: CUDA error %d", #call, r_); } while (0)

static void add_row(const char *w, const char *mode, bench_stats *s)
{
  if (nrows == (int)(sizeof rows / sizeof rows[0]))
    DIE("too many rows");
  row *r = &rows[nrows++];
  snprintf(r->workload, sizeof r->workload, "%s", w);
  snprintf(r->mode, sizeof r->mode, "%s", mode);
  bench_stats_summarize(s, &r->r);
  printf("%-12s %-34s mean %8.2f  p50 %8.2f  p99 %8.2f  p99.99 %8.2f  max %8.2f us\n", w, mode,
         r->r.mean, r->r.p50, r->r.p99, r->r.p9999, r->r.max);
  fflush(stdout);
}

/* Classic launch + sync and a CUDA graph of the same launch. */
static void launch_rows(const char *w, const char *kernel, const gg_arg *a, int na)
{
  gg_kernel *k;
  CHECKG(gg_kernel_get(mod, kernel, &k));
  bench_stats s;
  bench_stats_init(&s, (size_t)iters);
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    gg_launch(k, stream, a, na);
    CHECKG(gg_stream_sync(stream));
    if (i >= iters / 10)
      bench_stats_add(&s, bench_now_us() - t0);
  }
  add_row(w, "launch + sync", &s);
  bench_stats_reset(&s);
  gg_graph *g;
  CHECKG(gg_graph_capture_begin(stream, &g));
  CHECKG(gg_launch(k, stream, a, na));
  CHECKG(gg_graph_capture_end(g));
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    gg_graph_launch(g, stream);
    CHECKG(gg_stream_sync(stream));
    if (i >= iters / 10)
      bench_stats_add(&s, bench_now_us() - t0);
  }
  gg_graph_free(g);
  add_row(w, "CUDA graph + sync", &s);
  bench_stats_free(&s);
}

/* The session's statistics and histogram, for the first row that asks. */
static void session_histogram(const char *w, gg_session *se)
{
  gg_stats gs;
  FILE *hf = fopen(hist_path, "w");
  if (gg_session_stats(se, &gs) == GG_OK && hf && gg_session_histogram_csv(se, hf, 100) == GG_OK)
    printf("%-12s session statistics: %llu frames, p50 %.2f us, p99.99 %.2f us; histogram "
           "in %s\n", w, (unsigned long long)gs.count, gs.p50_ns / 1e3, gs.p9999_ns / 1e3,
           hist_path);
  if (hf)
    fclose(hf);
  hist_path = NULL;
}

static const gg_persistent_desc *persistent_desc(const char *name)
{
  const gg_module_desc *md = &gg_module_persistent_bench;
  for (int i = 0; i < md->npersistent; i++)
    if (strcmp(md->persistent[i].name, name) == 0)
      return &md->persistent[i];
  DIE("no persistent kernel %s", name);
}

/* Frames of command `kernel` on persistent kernel `pers`, one at a time;
 * 0 when the layout does not fit this GPU (the row says why). */
static int session_row(const char *w, const char *pers, const char *kernel, const gg_arg *a,
                        int na)
{
  gg_kernel *k;
  CHECKG(gg_kernel_get(mod, kernel, &k));
  const gg_kernel_desc *kd = gg_kernel_describe(k);
  unsigned char packed[256];
  CHECKG(gg_pack_args(kd, a, na, packed, sizeof packed));
  gg_session *se;
  /* The session's own statistics cost two clock reads a frame (~50 ns
     here): only the row that keeps the histogram asks for them. */
  gg_session_options opt = {.buffering = 1, .stats_frames = hist_path ? (uint64_t)iters : 0};
  if (gg_session_open(mod, pers, &opt, &se)) {
    printf("%-12s %-34s not run: %s\n", w, pers, gg_error_detail());
    return 0;
  }
  int cmd;
  CHECKG(gg_session_command(se, kernel, &cmd));
  bench_stats s;
  bench_stats_init(&s, (size_t)iters);
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    gg_session_start_packed(se, cmd, packed, kd->args_size, NULL);
    gg_status ws = gg_session_wait(se, WAIT_NS);
    if (ws)
      DIE("%s %s: %s", pers, kernel, gg_error_detail());
    if (i >= iters / 10)
      bench_stats_add(&s, bench_now_us() - t0);
  }
  if (kd->result_bytes == sizeof(float))
    CHECKG(gg_session_result(se, &last_result, sizeof last_result));
  const gg_persistent_desc *pd = persistent_desc(pers);
  static const char *ln[] = {"one_block", "many_blocks", "thread_groups", "hybrid"};
  char mode[64];
  int n = snprintf(mode, sizeof mode, "gpugen %s %dx%u", ln[pd->layout], gg_session_blocks(se),
                   pd->block_size);
  if (pd->groups > 1)
    snprintf(mode + n, sizeof mode - (size_t)n, ", %u groups", pd->groups);
  add_row(w, mode, &s);
  if (hist_path)
    session_histogram(w, se);
  CHECKG(gg_session_terminate(se));
  gg_session_free(se);
  bench_stats_free(&s);
  return 1;
}

/* The bare handshake: host release-stores seq, one warp acquires it and
 * release-stores done, the host acquires done.  Hand-written on purpose:
 * it is the floor every persistent frame is measured against. */
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

/* The floor kernel, running: its mailbox (seq at word 0, done at word 16,
 * a line apart) and the frame number last posted. */
typedef struct floor_k {
  void *lib;
  gg_module *m;
  gg_array *box;
  unsigned long long *h, f;
} floor_k;

/* Load the floor kernel and its mailbox, once: before any persistent
 * kernel runs (freeing waits for the device, gg_session.h). */
static void floor_open(floor_k *fl)
{
  fl->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!fl->lib || !dlsym(fl->lib, "cuLaunchKernel"))
    DIE("libcuda.so.1 with cuLaunchKernel: %s", dlerror());
  gg_module_desc d = {GG_MODULE_ABI, "floor", "floor", "bench", floor_src, NULL, NULL, NULL,
                      1, &floor_kd, 0, NULL};
  CHECKG(gg_module_load(ctx, &d, &fl->m));
  CHECKG(gg_array_alloc(ctx, GG_SPACE_MAPPED, 256, &fl->box));
  fl->h = gg_array_host(fl->box);
  fl->h[0] = fl->h[16] = fl->f = 0;
}

static void floor_launch(floor_k *fl)
{
  typedef int (*cu_launch_t)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, void *, void **, void **);
  cu_launch_t launch = (cu_launch_t)dlsym(fl->lib, "cuLaunchKernel");
  gg_kernel *k;
  CHECKG(gg_kernel_get(fl->m, "floor", &k));
  char *dev = gg_array_native(fl->box);
  struct { void *seq, *done; } args = {dev, dev + 128};
  void *params[] = {&args};
  CHECKCU(launch(gg_kernel_native_function(k), 1, 1, 1, 32, 1, 1, 0,
                 gg_stream_native(stream), params, NULL));
}

/* One handshake; its time in us. */
static double floor_frame(floor_k *fl)
{
  double t0 = bench_now_us();
  ++fl->f;
  __atomic_store_n(&fl->h[0], fl->f, __ATOMIC_RELEASE);
  while (__atomic_load_n(&fl->h[16], __ATOMIC_ACQUIRE) != fl->f)
    ;
  return bench_now_us() - t0;
}

/* The exit word, then wait for the kernel; the next launch starts over. */
static void floor_stop(floor_k *fl)
{
  __atomic_store_n(&fl->h[0], ~0ull, __ATOMIC_RELEASE);
  CHECKG(gg_stream_sync(stream));
  fl->h[0] = fl->h[16] = fl->f = 0;
}

static void floor_free(floor_k *fl)
{
  gg_array_free(fl->box);
  gg_module_free(fl->m);
  dlclose(fl->lib);
}

/* The floor and the empty frame (one_block 1x32, no statistics) in turn:
 * ten rounds, each launching the floor kernel for a tenth of the frames,
 * then opening a session for as many - one kernel resident at a time
 * (two polling kernels slow each other's PCIe reads), and a drift of
 * clocks or bus during the run moves both rows alike.  Their ratio is
 * the protocol's own cost over the bare handshake. */
static void handshake_rows(const gg_arg *ea)
{
  enum { ROUNDS = 10 };
  gg_kernel *k;
  CHECKG(gg_kernel_get(mod, "empty", &k));
  unsigned char packed[64];
  const size_t args_size = gg_kernel_describe(k)->args_size;
  CHECKG(gg_pack_args(gg_kernel_describe(k), ea, 1, packed, sizeof packed));
  floor_k fl;
  floor_open(&fl);
  bench_stats sf, sx;
  bench_stats_init(&sf, (size_t)iters);
  bench_stats_init(&sx, (size_t)iters);
  const int warm = iters / ROUNDS / 10 + 1; /* frames not kept after each launch */
  for (int r = 0; r < ROUNDS; r++) {
    const int n = iters / ROUNDS + (r < iters % ROUNDS);
    floor_launch(&fl);
    for (int i = -warm; i < n; i++) {
      double t = floor_frame(&fl);
      if (i >= 0)
        bench_stats_add(&sf, t);
    }
    floor_stop(&fl);
    gg_session *se;
    gg_session_options opt = {.buffering = 1};
    CHECKG(gg_session_open(mod, "empty_one", &opt, &se));
    for (int i = -warm; i < n; i++) {
      double t0 = bench_now_us();
      gg_session_start_packed(se, 0, packed, args_size, NULL);
      if (gg_session_wait(se, WAIT_NS))
        DIE("empty_one: %s", gg_error_detail());
      if (i >= 0)
        bench_stats_add(&sx, bench_now_us() - t0);
    }
    CHECKG(gg_session_terminate(se));
    gg_session_free(se);
  }
  floor_free(&fl);
  add_row("handshake", "bare one-warp loop (floor)", &sf);
  add_row("handshake", "empty frame one_block 1x32", &sx);
  printf("%-12s empty frame over the floor, in turn: p50 %+.1f %%, mean %+.1f %%\n", "handshake",
         100.0 * (rows[nrows - 1].r.p50 / rows[nrows - 2].r.p50 - 1),
         100.0 * (rows[nrows - 1].r.mean / rows[nrows - 2].r.mean - 1));
  bench_stats_free(&sf);
  bench_stats_free(&sx);
}

/* Sustained frames per second of empty frames: a ring of 8 slots against
 * back-to-back launches and graph launches of the same kernel. */
static void throughput(const gg_arg *a)
{
  int n = iters;
  gg_kernel *k;
  CHECKG(gg_kernel_get(mod, "empty", &k));
  unsigned char packed[64];
  CHECKG(gg_pack_args(gg_kernel_describe(k), a, 1, packed, sizeof packed));
  gg_session *se;
  gg_session_options opt = {.buffering = 8};
  CHECKG(gg_session_open(mod, "empty_one", &opt, &se));
  double t0 = bench_now_us();
  for (int i = 0; i < n; i++) {
    if (gg_session_started(se) - gg_session_completed(se) == 8)
      CHECKG(gg_session_wait(se, WAIT_NS));
    CHECKG(gg_session_start_packed(se, 0, packed, gg_kernel_describe(k)->args_size, NULL));
  }
  while (gg_session_completed(se) < gg_session_started(se))
    CHECKG(gg_session_wait(se, WAIT_NS));
  double ring = n / ((bench_now_us() - t0) * 1e-6);
  CHECKG(gg_session_terminate(se));
  gg_session_free(se);
  t0 = bench_now_us();
  for (int i = 0; i < n; i++)
    gg_launch(k, stream, a, 1);
  CHECKG(gg_stream_sync(stream));
  double launches = n / ((bench_now_us() - t0) * 1e-6);
  gg_graph *g;
  CHECKG(gg_graph_capture_begin(stream, &g));
  CHECKG(gg_launch(k, stream, a, 1));
  CHECKG(gg_graph_capture_end(g));
  t0 = bench_now_us();
  for (int i = 0; i < n; i++)
    gg_graph_launch(g, stream);
  CHECKG(gg_stream_sync(stream));
  double graphs = n / ((bench_now_us() - t0) * 1e-6);
  gg_graph_free(g);
  printf("\nsustained empty frames per second (%d frames): ring of 8 slots %.0f, back-to-back "
         "launches %.0f, back-to-back graph launches %.0f (ring / graphs %.2fx)\n", n, ring,
         launches, graphs, ring / graphs);
}

static gg_array *dev_floats(size_t n, float scale, float *host)
{
  gg_array *a;
  CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, n * 4, &a));
  for (size_t i = 0; i < n; i++)
    host[i] = scale * (float)(i % 7);
  CHECKG(gg_copy_from_host(a, 0, host, n * 4, NULL));
  return a;
}

static void check(const char *what, double got, double want, double tol)
{
  if (fabs(got - want) > tol * fmax(1.0, fabs(want)))
    DIE("%s: got %.9g, expected %.9g: the kernel is wrong, its times mean nothing", what, got,
        want);
}

/* The table, with ratios of means against launch + sync and of p50s
 * against the CUDA graph, then the best persistent layout of each row. */
static void print_table(FILE *f)
{
  fprintf(f, "\n| workload | mode | mean | p50 | p99 | p99.9 | p99.99 | max | mean vs launch+sync "
             "| p50 vs graph |\n|---|---|---|---|---|---|---|---|---|---|\n");
  double base = 0, graph = 0;
  for (int i = 0; i < nrows; i++) {
    const row *r = &rows[i];
    if (strcmp(r->mode, "launch + sync") == 0)
      base = r->r.mean;
    if (strcmp(r->mode, "CUDA graph + sync") == 0)
      graph = r->r.p50;
    if (strcmp(r->workload, "handshake") == 0)
      base = graph = 0;
    char rl[16] = "-", rg[16] = "-";
    if (base > 0)
      snprintf(rl, sizeof rl, "%.2fx", base / r->r.mean);
    if (graph > 0)
      snprintf(rg, sizeof rg, "%.2fx", graph / r->r.p50);
    fprintf(f, "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %s |\n", r->workload,
            r->mode, r->r.mean, r->r.p50, r->r.p99, r->r.p999, r->r.p9999, r->r.max, rl, rg);
  }
  fprintf(f, "\n| workload | launch + sync p50 | CUDA graph p50 | best gpugen p50 | layout | "
             "best vs graph (p50) |\n|---|---|---|---|---|---|\n");
  for (int i = 0; i < nrows;) {
    int j = i;
    double l = 0, g = 0;
    const row *best = NULL;
    for (; j < nrows && strcmp(rows[j].workload, rows[i].workload) == 0; j++) {
      const row *r = &rows[j];
      if (strcmp(r->mode, "launch + sync") == 0)
        l = r->r.p50;
      else if (strcmp(r->mode, "CUDA graph + sync") == 0)
        g = r->r.p50;
      else if (strncmp(r->mode, "gpugen", 6) == 0 && (!best || r->r.p50 < best->r.p50))
        best = r;
    }
    if (best && g > 0)
      fprintf(f, "| %s | %.2f | %.2f | %.2f | %s | %.2fx |\n", rows[i].workload, l, g,
              best->r.p50, best->mode + 7, g / best->r.p50);
    i = j;
  }
  fprintf(f, "\n(microseconds; higher ratios are better)\n");
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
  FILE *csv = bench_csv_open(argc > 3 ? argv[3] : "persistent_bench.csv");
  printf("real-time: %s; ", gg_rt_pin_cpu(2) ? gg_error_detail() : "pinned to CPU 2");
  printf("%s\n", gg_rt_fifo(50) ? gg_error_detail() : "SCHED_FIFO");
  printf("device: %s (%s), %d SMs; %d iterations per row\n\n", gg_context_device_name(ctx),
         gg_context_arch(ctx), gg_context_sm_count(ctx), iters);
  CHECKG(gg_module_load(ctx, &gg_module_persistent_bench, &mod));
  CHECKG(gg_stream_open(ctx, &stream));

  /* Every array before the first session (see gg_session.h). */
  enum { NX = 32768, NM = 128 };
  static float hx[NX], hA[NM * NM], hB[NM * NM], hC[NM * NM];
  gg_array *flag, *x = dev_floats(NX, 1.0f, hx), *A = dev_floats(NM * NM, 0.5f, hA),
           *B = dev_floats(NM * NM, 0.25f, hB), *C = dev_floats(NM * NM, 0.0f, hC), *out;
  CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, 64, &flag));
  CHECKG(gg_array_alloc(ctx, GG_SPACE_DEVICE, 64, &out));

  gg_arg ea[1] = {gg_arg_array(flag)};
  handshake_rows(ea);
  launch_rows("empty", "empty", ea, 1);
  session_row("empty", "empty_one", "empty", ea, 1);
  session_row("empty", "empty_many", "empty", ea, 1);
  session_row("empty", "empty_groups", "empty", ea, 1);

  /* 32K increment: every row adds 1 to x, so x = hx + (frames run). */
  gg_arg ia[2] = {gg_arg_array(x), gg_arg_i64(NX)};
  static const char *inc_on[] = {"one", "many16", "hybrid", "whole"};
  CHECKG(gg_copy_from_host(x, 0, hx, sizeof hx, NULL));
  launch_rows("inc 32K", "inc", ia, 2);
  for (int i = 0; i < 4; i++)
    session_row("inc 32K", inc_on[i], "inc", ia, 2);
  static float gx[NX];
  CHECKG(gg_copy_to_host(gx, x, 0, sizeof gx, NULL));
  double runs = 6.0 * (iters + iters / 10);
  for (int i = 0; i < NX; i += 97)
    check("inc 32K", gx[i], hx[i] + runs, 1e-6);
  CHECKG(gg_copy_from_host(x, 0, hx, sizeof hx, NULL));

  static const char *mm_on[] = {"one", "many16", "whole"};
  for (int n = 32; n <= NM; n *= 2) {
    char w[32];
    snprintf(w, sizeof w, "matmul %dx%d", n, n);
    gg_arg ma[4] = {gg_arg_array(A), gg_arg_array(B), gg_arg_array(C), gg_arg_i64(n)};
    launch_rows(w, "matmul", ma, 4);
    for (int i = 0; i < 3; i++)
      session_row(w, mm_on[i], "matmul", ma, 4);
    CHECKG(gg_copy_to_host(hC, C, 0, (size_t)n * n * 4, NULL));
    for (int r = 0; r < n; r += 7) {
      double want = 0;
      for (int k = 0; k < n; k++)
        want += (double)hA[r * n + k] * hB[k * n + (n - 1 - r)];
      check(w, hC[r * n + (n - 1 - r)], want, 1e-5);
    }
  }

  static const char *sum_on[] = {"one", "sum256", "many16", "whole"};
  for (int n = 1024; n <= NX; n *= 32) {
    char w[32];
    snprintf(w, sizeof w, "sum %dK", n / 1024);
    gg_arg sa[3] = {gg_arg_array(x), gg_arg_array(out), gg_arg_i64(n)};
    launch_rows(w, "sum", sa, 3);
    double want = 0;
    for (int i = 0; i < n; i++)
      want += hx[i];
    for (int i = 0; i < 4; i++)
      session_row(w, sum_on[i], "sum", sa, 3);
    float got;
    CHECKG(gg_copy_to_host(&got, out, 0, 4, NULL));
    check(w, got, want, 1e-6);
    /* the same sum as a frame, the value in the acknowledgement */
    char wr[40];
    snprintf(wr, sizeof wr, "%s, in ack", w);
    for (int i = 0; i < 4; i++) {
      static const float zero = 0.0f; /* so a frame that wrote nothing cannot pass */
      CHECKG(gg_copy_from_host(out, 0, &zero, sizeof zero, NULL));
      last_result = -1.0f;
      if (session_row(wr, sum_on[i], "sum_r", sa, 3))
        check(wr, last_result, want, 1e-6);
    }
  }

  throughput(ea);

  FILE *mdf = md_path ? fopen(md_path, "w") : NULL;
  print_table(stdout);
  if (mdf) {
    print_table(mdf);
    fclose(mdf);
  }
  for (int i = 0; csv && i < nrows; i++) {
    char label[sizeof rows[i].workload + sizeof rows[i].mode + 4];
    snprintf(label, sizeof label, "%.*s | %.*s", (int)sizeof rows[i].workload, rows[i].workload,
             (int)sizeof rows[i].mode, rows[i].mode);
    bench_csv_row(csv, "persistent", label, &rows[i].r, gg_context_device_name(ctx));
  }
  if (csv)
    fclose(csv);
  gg_array_free(flag);
  gg_array_free(x);
  gg_array_free(A);
  gg_array_free(B);
  gg_array_free(C);
  gg_array_free(out);
  gg_stream_free(stream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
