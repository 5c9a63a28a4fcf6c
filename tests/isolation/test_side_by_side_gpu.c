/*
 * test_side_by_side_gpu.c - persistent sessions on the two sides of an SM
 * split run side by side, and nothing the runtime does while a session of
 * any context of the device runs waits for it without a bound.
 * Label gpu; exit 77 without a GPU or without green contexts.
 *
 * The driver's module loads, unloads and frees wait for every kernel of
 * the device, a persistent kernel ends only at terminate (runtime/device.c
 * has the measured table), so before this test a session open, a free or a
 * terminate on one side could wait forever for the other side's session.
 *
 *   1. context A: 16 SMs; context B: the rest; C: the whole device.
 *   2. a many_blocks session (256 threads, double-buffered) opens on B, then
 *      one on A: both open, A's within its bound.  (A's open waited forever
 *      while its persistent kernel's function was left to the driver's lazy
 *      loading: loading it waited for B's kernel, and A's work after it.)
 *   3. while both run, every call that could wait for the device returns
 *      within its bound, each with the status the docs give: allocations,
 *      frees (put off), copies and fills on the default stream, streams,
 *      events, module loads (GG_ERR_STATE), device syncs (GG_ERR_STATE
 *      where they would wait).  A second session on the SMs B's session
 *      holds is refused by open within its open_timeout_ms, with the
 *      reason; its kernel stays queued, aborted.
 *   4. two threads, one a side, run GG_FRAMES frames (10000) each at the
 *      same time, every frame's output checked against the CPU.
 *   5. A's session terminates while B's runs (its frees put off), B runs on,
 *      then terminates; the refused kernel of step 3 then gets SMs and
 *      exits, and module loads work again within the bound.  (Before, the
 *      freed session dropped that kernel's stream: it stayed counted, and
 *      every later module load of the process was refused.)
 * N is not a power of two.  Not a test for compute-sanitizer: under
 * memcheck, step 5's terminate of A while B's kernel runs never returned,
 * the main thread in cuStreamQuery inside the tool's end-of-kernel
 * callback (seen on an H100 and an H200, with and without step 3's
 * refused open); without the tool it returns at once.
 */
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gg.h"
#include "gg_session.h"
#include "partition_gpu.h"
#include "side_by_side_gpu.h"
#include "../gg_check.h"

#define N 4099
#define BOUND_S 20 /* any call: the device-wait bound (10 s) and room to spare */

/* ---- a watchdog: a step that does not return within its bound fails the test ---- */
static volatile const char *step_name = "start";
static volatile double step_deadline;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static pthread_t main_thread;

/* Where the main thread waits: the frames name the call that hung. */
static void print_stack(int sig) {
  (void)sig;
  void *frames[64];
  int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, 2);
}

static void *watchdog(void *arg) {
  (void)arg;
  for (;;) {
    usleep(100000);
    if (step_deadline > 0 && now_s() > step_deadline) {
      fprintf(stderr, "FAIL: %s did not return within its bound; the main thread waits in:\n",
              (const char *)step_name);
      pthread_kill(main_thread, SIGUSR1);
      usleep(500000);
      _exit(1);
    }
  }
  return NULL;
}

static void step(const char *name, double bound_s) {
  step_name = name;
  step_deadline = now_s() + bound_s;
}

/* ---- the frames of one side ---- */
typedef struct side {
  const char *name;
  gg_context *ctx;
  gg_module *mod;
  gg_session *s;
  gg_array *x, *y;
  float b;       /* this side's offset: frames of the two sides differ */
  int frames;
  int bad;
} side;

static void *run_frames(void *arg) {
  side *d = arg;
  float *x = gg_array_host(d->x), *y = gg_array_host(d->y);
  for (int f = 0; f < d->frames && !d->bad; f++) {
    float a = (float)(f % 1000 + 1);
    for (int i = 0; i < N; i++) x[i] = (float)((i * 7 + f) % 97), y[i] = -1.0f;
    gg_status st = gg_side_by_side_gpu_start_axpb(d->s, GG_SIDE_BY_SIDE_GPU_MANY_CMD_AXPB, NULL, a, d->b,
                                             d->x, d->y, N);
    if (!st) st = gg_session_wait(d->s, 2000000000);
    if (st) {
      fprintf(stderr, "%s frame %d: %s: %s\n", d->name, f, gg_strerror(st), gg_error_detail());
      d->bad = 1;
      break;
    }
    for (int i = 0; i < N; i++)
      if (y[i] != a * x[i] + d->b) { /* exact: small integers */
        fprintf(stderr, "%s frame %d: y[%d] = %g, want %g\n", d->name, f, i, y[i], a * x[i] + d->b);
        d->bad = 1;
        break;
      }
  }
  return NULL;
}

static void open_side(side *d, const char *name, gg_context *ctx, float b) {
  d->name = name;
  d->ctx = ctx;
  d->b = b;
  CHECK_OK(gg_module_load(ctx, &gg_module_side_by_side_gpu, &d->mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, N * sizeof(float), &d->x));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, N * sizeof(float), &d->y));
}

/* A status within the bound, and, for a refusal, a reason that names it. */
static void expect(const char *what, gg_status got, gg_status want, const char *reason) {
  if (got != want || (reason && !strstr(gg_error_detail(), reason))) {
    fprintf(stderr, "FAIL: %s: %s (want %s): %s\n", what, gg_strerror(got), gg_strerror(want),
            gg_error_detail());
    exit(1);
  }
  printf("  %-58s %s\n", what, gg_strerror(got));
}

/* Work that needs an SM or a wait on the device: done, or refused with
 * GG_ERR_TIMEOUT and the reason once the bound has passed. */
static void expect_done_or_timeout(const char *what, gg_status got, double t0) {
  if (got == GG_ERR_TIMEOUT && strstr(gg_error_detail(), "persistent kernel")) {
    printf("  %-58s %s after %.1f s\n", what, gg_strerror(got), now_s() - t0);
    return;
  }
  expect(what, got, GG_OK, NULL);
}

/* Every call that could wait for the device, on ctx, while sessions run.
 * own: ctx has a session of its own holding all its SMs. */
static void calls_while_running(const char *name, gg_context *ctx, int own, int whole) {
  char what[160];
  gg_array *d = NULL, *m = NULL;
  gg_stream *s = NULL;
  gg_event *e = NULL;
  float host[N] = {0};
  printf("%s, while sessions run:\n", name);
  step("allocations", BOUND_S);
  snprintf(what, sizeof what, "%s: gg_array_alloc (device, mapped)", name);
  expect(what, gg_array_alloc(ctx, GG_SPACE_DEVICE, N * 4, &d), GG_OK, NULL);
  expect(what, gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &m), GG_OK, NULL);
  step("copies", BOUND_S);
  double t0 = now_s();
  snprintf(what, sizeof what, "%s: gg_copy_from_host, default stream", name);
  expect_done_or_timeout(what, gg_copy_from_host(d, 0, host, sizeof host, NULL), t0);
  step("copies", BOUND_S);
  t0 = now_s();
  snprintf(what, sizeof what, "%s: gg_copy_to_host, default stream", name);
  expect_done_or_timeout(what, gg_copy_to_host(host, d, 0, sizeof host, NULL), t0);
  /* a fill needs an SM, and the sessions hold every one of them */
  step("fill", BOUND_S);
  t0 = now_s();
  snprintf(what, sizeof what, "%s: gg_fill_zero, default stream", name);
  expect_done_or_timeout(what, gg_fill_zero(d, NULL), t0);
  step("streams and events", BOUND_S);
  snprintf(what, sizeof what, "%s: gg_stream_open/free, gg_event_open/free", name);
  expect(what, gg_stream_open(ctx, &s), GG_OK, NULL);
  expect(what, gg_event_open(ctx, &e), GG_OK, NULL);
  gg_event_free(e);
  gg_stream_free(s);
  step("module load", BOUND_S);
  gg_module *pm = NULL;
  snprintf(what, sizeof what, "%s: gg_module_load (a new module)", name);
  expect(what, gg_module_load(ctx, &gg_module_partition_gpu, &pm), GG_ERR_STATE,
         "waits for every kernel of the device");
  step("device sync", BOUND_S);
  snprintf(what, sizeof what, "%s: gg_device_sync", name);
  expect(what, gg_device_sync(ctx), own || whole ? GG_ERR_STATE : GG_OK,
         own || whole ? "would wait forever" : NULL);
  step("frees", BOUND_S);
  gg_array_free(d);
  gg_array_free(m);
  printf("  %-58s returned\n", "gg_array_free (device, mapped): put off");
  step_deadline = 0;
}

int main(void) {
  gg_context *whole = gg_check_open(NULL);
  pthread_t dog;
  main_thread = pthread_self();
  signal(SIGUSR1, print_stack);
  pthread_create(&dog, NULL, watchdog, NULL);
  side a = {0}, b = {0};
  gg_context *ca, *cb;
  gg_context_options oa = {.sm_count = 16}, ob = {.sm_count = 16, .sm_rest = 1};
  gg_status st = gg_context_open(&ca, &oa);
  if (st == GG_ERR_UNSUPPORTED)
    gg_check_skip("%s", gg_error_detail());
  CHECK_OK(st);
  CHECK_OK(gg_context_open(&cb, &ob));
  open_side(&a, "A (16 SMs)", ca, 100000.0f);
  open_side(&b, "B (the rest)", cb, 200000.0f);
  gg_session_options opt = {0};
  step("session open on B", BOUND_S);
  CHECK_OK(gg_session_open(b.mod, "many", &opt, &b.s));
  step("session open on A while B's session runs", BOUND_S);
  double t0 = now_s();
  st = gg_session_open(a.mod, "many", &opt, &a.s);
  printf("A's open, B's session running: %s after %.2f s; blocks A %d, B %d\n", gg_strerror(st),
         now_s() - t0, gg_session_blocks(a.s), gg_session_blocks(b.s));
  CHECK_OK(st);
  step_deadline = 0;

  calls_while_running("A", ca, 1, 0);
  calls_while_running("B", cb, 1, 0);
  calls_while_running("the whole device's context", whole, 0, 1);

  /* a second session on the SMs B's session holds: refused in bounded time */
  step("a second session on B's SMs", BOUND_S);
  gg_session_options short_open = {.open_timeout_ms = 2000};
  gg_session *refused = NULL;
  t0 = now_s();
  st = gg_session_open(b.mod, "many", &short_open, &refused);
  double open_s = now_s() - t0;
  expect("B: gg_session_open of a second session, open_timeout 2 s", st, GG_ERR_TIMEOUT,
         "got no SMs");
  printf("  refused after %.2f s: %s\n", open_s, gg_error_detail());
  if (refused || open_s > 2.0 + 5.0) {
    fprintf(stderr, "FAIL: the refusal took %.2f s (bound 2 s + terminate 1 s)\n", open_s);
    return 1;
  }
  step_deadline = 0;


  /* side by side */
  const char *env = getenv("GG_FRAMES");
  a.frames = b.frames = env ? atoi(env) : 10000;
  pthread_t ta, tb;
  t0 = now_s();
  step("frames on both sides", 300);
  pthread_create(&ta, NULL, run_frames, &a);
  pthread_create(&tb, NULL, run_frames, &b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  if (a.bad || b.bad) return 1;
  printf("%d frames on each side at once, every one checked: %.2f s\n", a.frames, now_s() - t0);

  /* A ends while B runs; B goes on */
  step("A's terminate while B's session runs", BOUND_S);
  CHECK_OK(gg_session_terminate(a.s));
  gg_session_free(a.s);
  step("B's frames after A's end", 120);
  b.frames = 1000;
  run_frames(&b);
  if (b.bad) return 1;
  step("B's terminate", BOUND_S);
  CHECK_OK(gg_session_terminate(b.s));
  gg_session_free(b.s);
  step("loads after the sessions", BOUND_S);
  gg_module *pm = NULL;
  /* the refused kernel exits once it gets SMs: a moment after B's end */
  t0 = now_s();
  while ((st = gg_module_load(ca, &gg_module_partition_gpu, &pm)) == GG_ERR_STATE &&
         now_s() - t0 < 10)
    usleep(1000);
  printf("module load after the sessions: %s after %.3f s\n", gg_strerror(st), now_s() - t0);
  CHECK_OK(st);
  CHECK_OK(gg_device_sync(whole));
  gg_module_free(pm);
  gg_array_free(a.x);
  gg_array_free(a.y);
  gg_array_free(b.x);
  gg_array_free(b.y);
  gg_context_free(ca);
  gg_context_free(cb);
  gg_context_free(whole);
  step_deadline = 0;
  printf("ok\n");
  return 0;
}
