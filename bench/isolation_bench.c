/*
 * isolation_bench - a frame loop's latency while something else uses the
 * same GPU, through the real pipeline (bench/isolation_bench.lua -> gpugen
 * at build time -> libgg).  The loop's frame is one filter step over 32000
 * floats in device memory, run two ways side by side:
 *   CUDA graph + sync    the step captured once, replayed, stream sync
 *   gpugen session       a persistent kernel of 16 blocks x 256 threads,
 *                        gg_session_start_packed + gg_session_wait
 * under each competing load (one row each):
 *   quiet                nothing else runs
 *   stream               the same process and context: another stream
 *                        keeps every SM busy with 200 us kernels ("burn")
 *   stream, partition    the same, with the loop on a 16-SM partition
 *                        (gg_context_options.sm_count) and the burn on the
 *                        rest (sm_rest): the loop's SMs are its own
 *   process burn         another process keeps every SM busy with burns
 *   process copy         another process copies 1 GiB device buffers
 * The driver time-slices contexts of different processes; under MPS
 * (scripts/isolation-mps.sh) their kernels run side by side instead, and
 * GG_ISO_HOG_MPS_PERCENT caps the other process's share of SMs.
 *
 * usage: isolation_bench [frames (5000)] [markdown file]
 *        isolation_bench --hog burn|copy   (the competing process; runs until killed)
 *
 * Every row's y is checked against the CPU, so a broken loop cannot post a
 * fast time.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gg.h"
#include "gg_session.h"
#include "isolation_bench.h"
#include "stats.h"
#include "../tests/gg_check.h"

#define N 32000                 /* the loop's samples (not a power of two) */
#define BURN_NS 200000          /* how long each burn thread holds its SM */
#define COPY_BYTES (1ull << 30) /* the copying process's buffers */
#define PARTITION_SMS 16        /* the loop's partition: one SM per session block */
#define WAIT_NS 2000000000ll

static int frames = 5000;

/* ---- the loop ---- */

typedef struct loop {
  gg_context *ctx;
  gg_module *mod;
  gg_array *x, *y;
  float *xh, *yh;    /* the CPU's copy of x and its reference of y */
  int steps;         /* steps run on y since it was zeroed */
} loop;

static void loop_open(loop *l, gg_context *ctx)
{
  memset(l, 0, sizeof *l);
  l->ctx = ctx;
  CHECK_OK(gg_module_load(ctx, &gg_module_isolation_bench, &l->mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, N * 4, &l->x));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, N * 4, &l->y));
  l->xh = malloc(N * 4), l->yh = malloc(N * 4);
  if (!l->xh || !l->yh) abort();
  for (int i = 0; i < N; i++) l->xh[i] = (float)(i % 97) * 0.25f;
  CHECK_OK(gg_copy_from_host(l->x, 0, l->xh, N * 4, NULL));
}

static void loop_reset(loop *l)
{
  CHECK_OK(gg_fill_zero(l->y, NULL));
  for (int i = 0; i < N; i++) l->yh[i] = 0.0f;
  l->steps = 0;
}

/* y on the GPU against the CPU's y after the same number of steps. */
static void loop_check(loop *l, const char *what)
{
  for (int i = 0; i < N; i++) {
    float y = l->yh[i];
    for (int s = 0; s < l->steps && s < 64; s++) y = 0.5f * y + l->xh[i]; /* converged by 64 */
    l->yh[i] = y;
  }
  l->steps = 0;
  float *got = malloc(N * 4);
  if (!got) abort();
  CHECK_OK(gg_copy_to_host(got, l->y, 0, N * 4, NULL));
  for (int i = 0; i < N; i++)
    if (fabsf(got[i] - l->yh[i]) > 1e-4f * (1.0f + fabsf(l->yh[i]))) {
      fprintf(stderr, "%s: y[%d] = %g, want %g\n", what, i, got[i], l->yh[i]);
      exit(1);
    }
  free(got);
}

typedef struct result {
  bench_summary graph, session;
} result;

static void graph_frames(loop *l, bench_summary *out)
{
  gg_kernel *k;
  gg_stream *s;
  gg_graph *g;
  CHECK_OK(gg_kernel_get(l->mod, "step", &k));
  CHECK_OK(gg_stream_open(l->ctx, &s));
  gg_arg a[3] = {gg_arg_array(l->x), gg_arg_array(l->y), gg_arg_i64(N)};
  CHECK_OK(gg_graph_capture_begin(s, &g));
  CHECK_OK(gg_launch(k, s, a, 3));
  CHECK_OK(gg_graph_capture_end(g));
  bench_stats st;
  bench_stats_init(&st, (size_t)frames);
  loop_reset(l);
  for (int i = 0; i < frames + frames / 10; i++) {
    double t0 = bench_now_us();
    CHECK_OK(gg_graph_launch(g, s));
    CHECK_OK(gg_stream_sync(s));
    if (i >= frames / 10) bench_stats_add(&st, bench_now_us() - t0);
  }
  l->steps = frames + frames / 10;
  loop_check(l, "graph");
  bench_stats_summarize(&st, out);
  bench_stats_free(&st);
  gg_graph_free(g);
  gg_stream_free(s);
}

static void session_frames(loop *l, bench_summary *out)
{
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(l->mod, "step", &k));
  gg_arg a[3] = {gg_arg_array(l->x), gg_arg_array(l->y), gg_arg_i64(N)};
  unsigned char packed[64];
  CHECK_OK(gg_pack_args(gg_kernel_describe(k), a, 3, packed, sizeof packed));
  loop_reset(l);
  gg_session *se;
  gg_session_options opt = {.buffering = 1};
  CHECK_OK(gg_session_open(l->mod, "loop", &opt, &se));
  int cmd;
  CHECK_OK(gg_session_command(se, "step", &cmd));
  bench_stats st;
  bench_stats_init(&st, (size_t)frames);
  for (int i = 0; i < frames + frames / 10; i++) {
    double t0 = bench_now_us();
    CHECK_OK(gg_session_start_packed(se, cmd, packed, gg_kernel_describe(k)->args_size, NULL));
    CHECK_OK(gg_session_wait(se, WAIT_NS));
    if (i >= frames / 10) bench_stats_add(&st, bench_now_us() - t0);
  }
  CHECK_OK(gg_session_terminate(se));
  gg_session_free(se);
  l->steps = frames + frames / 10;
  loop_check(l, "session");
  bench_stats_summarize(&st, out);
  bench_stats_free(&st);
}

/* ---- the competing load ---- */

/* Burn kernels back to back on a stream of ctx, 8 blocks of 256 per SM
 * (all an SM holds of them), until *stop; four queued between syncs so
 * the SMs never wait for the host. */
typedef struct hog {
  gg_module *mod; /* loaded before the thread starts (gg.h: loads are one thread at a time) */
  volatile int stop, ready;
  pthread_t thread;
} hog;

static void burn_until(gg_module *mod, volatile int *stop, volatile int *ready)
{
  gg_context *ctx = gg_module_context(mod);
  gg_kernel *k;
  gg_stream *s;
  gg_array *z;
  int64_t n = (int64_t)gg_context_sm_count(ctx) * 2048;
  CHECK_OK(gg_kernel_get(mod, "burn", &k));
  CHECK_OK(gg_stream_open(ctx, &s));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &z));
  gg_arg a[3] = {gg_arg_array(z), gg_arg_i64(n), gg_arg_i64(BURN_NS)};
  while (!*stop) {
    for (int i = 0; i < 4; i++) CHECK_OK(gg_launch(k, s, a, 3));
    CHECK_OK(gg_stream_sync(s));
    *ready = 1;
  }
  gg_stream_free(s);
}

static void *hog_main(void *arg)
{
  hog *h = arg;
  burn_until(h->mod, &h->stop, &h->ready);
  return NULL;
}

static void hog_start(hog *h, gg_context *ctx)
{
  memset(h, 0, sizeof *h);
  CHECK_OK(gg_module_load(ctx, &gg_module_isolation_bench, &h->mod));
  if (pthread_create(&h->thread, NULL, hog_main, h)) abort();
  while (!h->ready) usleep(1000);
}

static void hog_stop(hog *h)
{
  h->stop = 1;
  pthread_join(h->thread, NULL);
}

/* The other process: this program with --hog; it says "ready" on its
 * stdout once its load runs. */
static pid_t other_start(const char *what)
{
  int fd[2];
  if (pipe(fd)) abort();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    const char *pct = getenv("GG_ISO_HOG_MPS_PERCENT");
    if (pct && *pct) setenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", pct, 1);
    execl("/proc/self/exe", "isolation_bench", "--hog", what, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char c;
  if (read(fd[0], &c, 1) != 1) {
    fprintf(stderr, "the competing process (%s) did not start\n", what);
    exit(1);
  }
  close(fd[0]);
  return pid;
}

static void other_stop(pid_t pid)
{
  kill(pid, SIGTERM);
  waitpid(pid, NULL, 0);
}

static int hog_process(const char *what)
{
  gg_context *ctx;
  CHECK_OK(gg_context_open(&ctx, NULL));
  int stop = 0, ready = 0;
  if (strcmp(what, "burn") == 0) {
    gg_module *mod;
    CHECK_OK(gg_module_load(ctx, &gg_module_isolation_bench, &mod)); /* compiled before "ready" */
    if (write(1, "r", 1) != 1) return 1;
    burn_until(mod, &stop, &ready);
    return 0;
  }
  gg_array *a, *b;
  gg_stream *s;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, COPY_BYTES, &a));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, COPY_BYTES, &b));
  CHECK_OK(gg_stream_open(ctx, &s));
  if (write(1, "r", 1) != 1) return 1;
  for (;;) {
    CHECK_OK(gg_copy(b, 0, a, 0, COPY_BYTES, s));
    CHECK_OK(gg_copy(a, 0, b, 0, COPY_BYTES, s));
    CHECK_OK(gg_stream_sync(s));
  }
}

/* ---- the table ---- */

typedef struct row {
  char load[64];
  result r;
  int quiet; /* the row this one's p99 is compared with */
} row;

static void print_row(FILE *f, const row *w, const result *quiet)
{
  const bench_summary *g = &w->r.graph, *s = &w->r.session;
  fprintf(f, "| %s | graph | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx |\n", w->load, g->mean,
          g->p50, g->p99, g->p999, g->max, g->p99 / quiet->graph.p99);
  fprintf(f, "| %s | gpugen session | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx |\n", w->load,
          s->mean, s->p50, s->p99, s->p999, s->max, s->p99 / quiet->session.p99);
  fflush(f);
}

static void measure(loop *l, row *w, const char *load, int quiet)
{
  snprintf(w->load, sizeof w->load, "%s", load);
  w->quiet = quiet;
  graph_frames(l, &w->r.graph);
  session_frames(l, &w->r.session);
  printf("%-34s graph p50 %8.2f p99 %9.2f max %9.2f | session p50 %8.2f p99 %9.2f max %9.2f us\n",
         load, w->r.graph.p50, w->r.graph.p99, w->r.graph.max, w->r.session.p50,
         w->r.session.p99, w->r.session.max);
  fflush(stdout);
}

int main(int argc, char **argv)
{
  if (argc > 2 && strcmp(argv[1], "--hog") == 0) return hog_process(argv[2]);
  if (argc > 1) frames = atoi(argv[1]);
  if (frames < 100) frames = 100;
  gg_context *whole;
  if (gg_context_open(&whole, NULL)) {
    printf("skipped: %s\n", gg_error_detail());
    return 77;
  }
  const char *mps = getenv("CUDA_MPS_PIPE_DIRECTORY");
  printf("%s, %d SMs; %d frames per row%s\n", gg_context_device_name(whole),
         gg_context_sm_count(whole), frames, mps ? "; under MPS" : "");
  row rows[8];
  int nr = 0;
  loop l;
  loop_open(&l, whole);
  measure(&l, &rows[nr++], "quiet", 0);

  hog h;
  hog_start(&h, whole);
  measure(&l, &rows[nr++], "stream (same context)", 0);
  hog_stop(&h);

  gg_context *mine = NULL, *rest = NULL;
  gg_context_options om = {.sm_count = PARTITION_SMS}, orest = {.sm_count = PARTITION_SMS, .sm_rest = 1};
  if (gg_context_open(&mine, &om) == GG_OK && gg_context_open(&rest, &orest) == GG_OK) {
    loop lp;
    loop_open(&lp, mine);
    int quiet = nr;
    measure(&lp, &rows[nr++], "partition, quiet", quiet);
    hog_start(&h, rest);
    char label[64];
    snprintf(label, sizeof label, "stream, partition %d + %d SMs", gg_context_sm_count(mine),
             gg_context_sm_count(rest));
    measure(&lp, &rows[nr++], label, quiet);
    hog_stop(&h);
  } else {
    printf("partition rows not run: %s\n", gg_error_detail());
  }

  pid_t p = other_start("burn");
  measure(&l, &rows[nr++], "process burn", 0);
  other_stop(p);
  p = other_start("copy");
  measure(&l, &rows[nr++], "process copy 1 GiB", 0);
  other_stop(p);

  FILE *md = argc > 2 ? fopen(argv[2], "w") : NULL;
  FILE *outs[2] = {stdout, md};
  for (int o = 0; o < 2; o++) {
    if (!outs[o]) continue;
    fprintf(outs[o], "\n%s, %d SMs, %d frames per row%s; frame = one step over %d floats; "
            "us; last column: p99 against the same mode's quiet p99 (partition rows: the "
            "partition's quiet row)\n\n", gg_context_device_name(whole),
            gg_context_sm_count(whole), frames, mps ? ", under MPS" : "", N);
    fprintf(outs[o], "| load | mode | mean | p50 | p99 | p99.9 | max | p99 vs quiet |\n");
    fprintf(outs[o], "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < nr; i++) print_row(outs[o], &rows[i], &rows[rows[i].quiet].r);
  }
  if (md) fclose(md);
  return 0;
}
