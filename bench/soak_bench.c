/*
 * soak_bench.c - where a frame's time goes over a long run: examples/app's
 * frame ("step": y = gain * x fused into e = sum(y * y), n = 1000, device
 * arrays) for 1e8 frames in one session, against the floor: the bare
 * handshake loop (bench/soak_bench.lua: a command that does nothing, the
 * same one block of 1024 threads) in a second session of the same process.
 * Both sessions stay open and the host alternates between them, a chunk
 * of frames each (--chunk app frames, and the floor's share of as many),
 * so the two see the same host and machine over the whole run: the
 * virtual machine's noise comes and goes over minutes, and a floor
 * measured before the app would compare two different stretches of it.
 * The chunks are short (1e4 app frames, ~40 ms, and ~1e3 floor frames):
 * with 1e6 (4 s against 0.3 s) a burst of noise lasting seconds fell in
 * the app's chunks far more often than in the floor's, and on the H200
 * the app's frames over the floor's p99.99 came 40.6 a second of its
 * frames against the floor's 30.9; with 1e4, 39.1 against 34.5
 * (bench/RESULTS.md, 2026-11-29).  A switch costs nothing measurable:
 * the host posts to the other session's mailbox.
 * (The idle session's kernel keeps polling its mailbox meanwhile, as
 * the active one's does: both loops pay for that alike.)
 *
 * Every frame is timed by the session (start -> wait) and split with the
 * device's timestamps into host -> GPU, GPU and GPU -> host
 * (gg_session.h: gg_part); the statistics stream into fixed memory (a
 * histogram with the largest frames kept exactly: here frames / 1000 + 1
 * of them, so every frame above p99.9 is kept and named for the part
 * that made it late).  One frame at a time (one slot), as examples/app.
 *
 * Prints, for the floor and the app: n, mean, p50, p99, p99.9, p99.99,
 * p99.9999, max (us); each part's mean, p50, p99, p99.9, p99.99, max;
 * how many frames lie above p99.9 and which part made them late; the
 * device clock's smallest step seen; how many frames of each loop lie over
 * the floor's p99.99, and how many a second of that loop's frames (the
 * host's interruptions come at a rate in time); what took the waiting
 * thread's CPU (bench/host_noise.c); the ratio app p99.99 / floor p99.99
 * (goal <= 1.1); with --cost, the p50 of the bare loop with and without
 * device times, two sessions alternating 1e5-frame chunks, once in each
 * order of opening (goal: <= 0.1 us apart).  The app's e is checked
 * against the CPU once at the end (exit 1 if wrong).
 *
 * usage: soak_bench [--frames N (1e8)] [--floor-frames N (frames / 10, at
 *        least 1e6)] [--chunk N (1e4 app frames)] [--pin CPU] [--mlock]
 *        [--fifo] [--no-device-times] [--cost [N (2e6 frames a side)]]
 *        [--deadline NS] [--hist FILE.csv] [--tails FILE.csv]
 *        [--layout KERNEL|auto (frame_one_block_1024, the app's default;
 *        auto: gg_session_tune's choice among app.lua's kernels)]
 * Exit: 0, 1 on an error or a wrong result, 2 on usage, 77 without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_noise.h"
#include "app.h"        /* examples/app/app.lua: frame "step", persistent frame_one_block_1024 */
#include "soak_bench.h" /* bench/soak_bench.lua: the bare loop */
#include "gg.h"
#include "gg_session.h"

#define N 1000                  /* examples/app's default signal */
#define WAIT_NS 2000000000ll    /* a frame that takes 2 s is an error, not a tail */

typedef struct opts {
  uint64_t frames, floor_frames, chunk, cost_frames;
  int pin, mlock, fifo, no_times, cost;
  int64_t deadline;
  const char *hist, *tails;
  const char *layout; /* the app's persistent kernel, or "auto" */
} opts;

static void usage(void)
{
  fprintf(stderr, "usage: soak_bench [--frames N] [--floor-frames N] [--chunk N] [--pin CPU] "
                  "[--mlock] [--fifo] [--no-device-times] [--cost [N]] [--deadline NS] "
                  "[--hist FILE.csv] [--tails FILE.csv] [--layout KERNEL|auto]\n");
  exit(2);
}

static uint64_t count_arg(const char *v)
{
  char *end;
  double d = strtod(v, &end); /* 1e8 reads as it is written */
  if (*end || !(d >= 1) || d > 1e12 || d != floor(d))
    usage();
  return (uint64_t)d;
}

/* A CPU number: decimal digits, 0 to 4095 (--pin abc pinned to CPU 0). */
static int cpu_arg(const char *v)
{
  char *end;
  long c = strtol(v, &end, 10);
  if (end == v || *end || c < 0 || c > 4095 || *v == '-' || *v == '+')
    usage();
  return (int)c;
}

static opts parse(int argc, char **argv)
{
  opts o = {.frames = 100000000ull, .chunk = 10000ull, .cost_frames = 2000000ull, .pin = -1,
            .layout = "frame_one_block_1024"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--frames") && v) o.frames = count_arg(v), i++;
    else if (!strcmp(a, "--floor-frames") && v) o.floor_frames = count_arg(v), i++;
    else if (!strcmp(a, "--pin") && v) o.pin = cpu_arg(v), i++;
    else if (!strcmp(a, "--deadline") && v) o.deadline = (int64_t)count_arg(v), i++;
    else if (!strcmp(a, "--hist") && v) o.hist = v, i++;
    else if (!strcmp(a, "--tails") && v) o.tails = v, i++;
    else if (!strcmp(a, "--layout") && v) o.layout = v, i++;
    else if (!strcmp(a, "--mlock")) o.mlock = 1;
    else if (!strcmp(a, "--fifo")) o.fifo = 1;
    else if (!strcmp(a, "--no-device-times")) o.no_times = 1;
    else if (!strcmp(a, "--chunk") && v) o.chunk = count_arg(v), i++;
    else if (!strcmp(a, "--cost")) {
      o.cost = 1;
      if (v && v[0] >= '0' && v[0] <= '9')
        o.cost_frames = count_arg(v), i++;
    }
    else usage();
  }
  if (!o.floor_frames)
    o.floor_frames = o.frames / 10 > 1000000 ? o.frames / 10 : 1000000;
  if (o.chunk > o.frames)
    o.chunk = o.frames;
  return o;
}

static void die(const char *what)
{
  fprintf(stderr, "soak_bench: %s: %s\n", what, gg_error_detail());
  exit(1);
}

/* The host's real-time settings, each said plainly when refused. */
static void host_setup(const opts *o)
{
  if (o->pin >= 0)
    printf("host: pin to CPU %d: %s\n", o->pin, gg_rt_pin_cpu(o->pin) ? gg_error_detail() : "ok");
  if (o->mlock)
    printf("host: mlockall: %s\n", gg_rt_lock_memory() ? gg_error_detail() : "ok");
  if (o->fifo)
    printf("host: SCHED_FIFO 50: %s\n", gg_rt_fifo(50) ? gg_error_detail() : "ok");
  if (o->pin < 0 && !o->mlock && !o->fifo)
    printf("host: no pinning, no memory locking, no SCHED_FIFO (see docs/timing.md)\n");
}

/* One loop's session: frames of command cmd with args. */
typedef struct loop {
  const char *name;
  gg_session *se;
  int cmd;
  gg_arg args[5];
  int nargs;
} loop;

static uint64_t late_seen;
static void on_late(void *user, const gg_frame_time *t)
{
  (void)user;
  if (late_seen++ < 5)
    printf("  late: frame %llu, %.2f us (%s)\n", (unsigned long long)t->frame, t->total_ns / 1e3,
           gg_part_name(t->late));
}

static void open_loop(loop *l, gg_module *mod, const char *kernel, const char *cmd,
                      uint64_t frames, gg_device_times times, int64_t deadline, int blocks)
{
  gg_session_options so = {0};
  so.buffering = 1;
  so.blocks = blocks;
  so.stats_frames = frames;
  so.stats_tail = (uint32_t)(frames / 1000 + 1); /* every frame above p99.9 */
  so.device_times = times;
  if (gg_session_open(mod, kernel, &so, &l->se))
    die(kernel);
  if (gg_session_command(l->se, cmd, &l->cmd))
    die(cmd);
  if (deadline && gg_session_deadline(l->se, deadline, on_late, NULL))
    die("deadline");
}

static void run_loop(loop *l, uint64_t frames)
{
  for (uint64_t f = 0; f < frames; f++)
    if (gg_session_start(l->se, l->cmd, l->args, l->nargs, NULL) || gg_session_wait(l->se, WAIT_NS))
      die(l->name);
}

/* Runs na frames of a and nb of b, alternating: chunk frames of b, then
 * a's share of as many (na / nb of them, so both end together), until
 * both have run all theirs. */
static void alternate(loop *a, uint64_t na, loop *b, uint64_t nb, uint64_t chunk)
{
  uint64_t done_a = 0, done_b = 0;
  while (done_a < na || done_b < nb) {
    uint64_t to_b = done_b + chunk < nb ? done_b + chunk : nb;
    uint64_t to_a = (uint64_t)((double)na * (double)to_b / (double)nb);
    if (to_b == nb || to_a > na)
      to_a = na;
    run_loop(a, to_a - done_a);
    run_loop(b, to_b - done_b);
    done_a = to_a;
    done_b = to_b;
  }
}

static void close_loop(loop *l)
{
  if (gg_session_terminate(l->se))
    die("terminate");
  gg_session_free(l->se);
  l->se = NULL;
}

static void print_header(void)
{
  printf("%-22s %11s %8s %8s %8s %8s %8s %9s %9s\n", "loop (us)", "n", "mean", "p50", "p99",
         "p99.9", "p99.99", "p99.9999", "max");
}

static void print_stats(const char *name, const gg_stats *s)
{
  printf("%-22s %11llu %8.2f %8.2f %8.2f %8.2f %8.2f %9.2f %9.2f\n", name,
         (unsigned long long)s->count, s->mean_ns / 1e3, s->p50_ns / 1e3, s->p99_ns / 1e3,
         s->p999_ns / 1e3, s->p9999_ns / 1e3, s->p999999_ns / 1e3, s->max_ns / 1e3);
  if (!s->timed) {
    printf("  (no device times: no split)\n");
    return;
  }
  for (int p = 0; p < GG_NPARTS; p++) {
    const gg_part_stats *q = &s->part[p];
    printf("  %-20s %11s %8.2f %8.2f %8.2f %8.2f %8.2f %9s %9.2f\n", gg_part_name((gg_part)p),
           "", q->mean_ns / 1e3, q->p50_ns / 1e3, q->p99_ns / 1e3, q->p999_ns / 1e3,
           q->p9999_ns / 1e3, "", q->max_ns / 1e3);
  }
  printf("  above p99.9: %llu frames%s; late by to_gpu %llu, gpu %llu, to_host %llu, "
         "unknown %llu\n", (unsigned long long)s->tail_over_p999,
         s->tails_cover_p999 ? " (every one kept)" : " (NOT all kept)",
         (unsigned long long)s->tail_late[0], (unsigned long long)s->tail_late[1],
         (unsigned long long)s->tail_late[2], (unsigned long long)s->tail_late[3]);
  printf("  device clock: step %.0f ns (every time a multiple), smallest GPU part %.0f ns; "
         "offset %.0f ns, smallest round trip %.2f us; timed %llu of %llu\n",
         s->clock_step_ns, s->busy_min_ns, s->offset_ns, s->min_rtt_ns / 1e3,
         (unsigned long long)s->timed, (unsigned long long)s->count);
  if (s->late)
    printf("  deadline: %llu late, worst frame %llu %.2f us (%s); by to_gpu %llu, gpu %llu, "
           "to_host %llu, unknown %llu\n", (unsigned long long)s->late,
           (unsigned long long)s->late_worst.frame, s->late_worst.total_ns / 1e3,
           gg_part_name(s->late_worst.late), (unsigned long long)s->late_by[0],
           (unsigned long long)s->late_by[1], (unsigned long long)s->late_by[2],
           (unsigned long long)s->late_by[3]);
}

static void stats_of(loop *l, gg_stats *s)
{
  if (gg_session_stats(l->se, s))
    die("statistics");
}

/* The p50 of the bare loop with and without device times: two sessions
 * open side by side, alternating 1e5-frame chunks, n frames each; the
 * difference, with - without.  first_on: the session with device times
 * is opened (and run) first. */
static double cost_pass(gg_module *bare, uint64_t n, int first_on)
{
  loop l[2] = {{"bare, no device times", NULL, 0, {{0}}, 0},
               {"bare, device times", NULL, 0, {{0}}, 0}};
  loop *a = &l[first_on], *b = &l[!first_on];
  open_loop(a, bare, "bare", "tick", n, first_on ? GG_TIMES_ON : GG_TIMES_OFF, 0, 0);
  open_loop(b, bare, "bare", "tick", n, first_on ? GG_TIMES_OFF : GG_TIMES_ON, 0, 0);
  alternate(a, n, b, n, 100000);
  gg_stats s[2];
  stats_of(&l[0], &s[0]);
  stats_of(&l[1], &s[1]);
  close_loop(&l[0]);
  close_loop(&l[1]);
  printf("device times' cost: the bare loop, %llu frames a side in alternating chunks of 1e5, "
         "the session %s device times opened first\n", (unsigned long long)n,
         first_on ? "with" : "without");
  print_header();
  print_stats("without device times", &s[0]);
  print_stats("with device times", &s[1]);
  printf("with - without: p50 %.3f us, mean %.3f us, p99 %.3f us\n\n",
         (s[1].p50_ns - s[0].p50_ns) / 1e3, (s[1].mean_ns - s[0].mean_ns) / 1e3,
         (s[1].p99_ns - s[0].p99_ns) / 1e3);
  return s[1].p50_ns - s[0].p50_ns;
}

/* Two passes, each order of opening once: in a run of one pass on the
 * H200 the session without device times, opened first, was 0.19 us
 * slower at p50 than the one with them, so something besides the times
 * differs between two side-by-side sessions; the cost is the mean of the
 * two passes' differences. */
static void measure_cost(gg_module *bare, uint64_t n)
{
  double d0 = cost_pass(bare, n, 0), d1 = cost_pass(bare, n, 1);
  printf("device times' cost at p50: %.3f us (the two orders: %.3f, %.3f; goal <= 0.1)\n\n",
         (d0 + d1) / 2e3, d0 / 1e3, d1 / 1e3);
}

/* Frames of loop l over ns, from its kept tails (every frame above its
 * p99.9); -1 when the kept frames do not reach down to ns. */
static long long count_over(loop *l, const gg_stats *s, double ns)
{
  size_t max = (size_t)(s->count / 1000 + 1), n = 0;
  gg_frame_time *t = malloc(max * sizeof *t);
  if (!t || gg_session_tails(l->se, t, max, &n)) {
    free(t);
    return -1;
  }
  long long c = 0;
  while ((size_t)c < n && t[c].total_ns > ns) /* largest first */
    c++;
  const int reached = (size_t)c < n || n < max;
  free(t);
  return reached ? c : -1;
}

/* The slow frames per second of each loop's own time (its frames' sum,
 * mean x n): the host's interruptions come at a rate in time, so a loop
 * whose frames are longer has more of its frames hit and its p99.99 sits
 * further into their lengths.  Counted over the floor's p99.99. */
static void print_rates(loop *fl, const gg_stats *f, loop *al, const gg_stats *a)
{
  const double at = f->p9999_ns;
  long long nf = count_over(fl, f, at), na = count_over(al, a, at);
  if (nf < 0 || na < 0) {
    printf("frames over the floor's p99.99: not all kept\n");
    return;
  }
  const double sf = f->mean_ns * (double)f->count / 1e9, sa = a->mean_ns * (double)a->count / 1e9;
  printf("frames over the floor's p99.99 (%.2f us): floor %lld, %.1f a second of its frames; "
         "app %lld, %.1f a second of its frames\n", at / 1e3, nf, nf / sf, na, na / sa);
}

static void write_csv(loop *l, const char *path, int tails)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "soak_bench: cannot write %s\n", path);
    exit(1);
  }
  if (tails ? gg_session_tails_csv(l->se, f) : gg_session_histogram_csv(l->se, f, 100))
    die(path);
  fclose(f);
  printf("  %s: %s\n", tails ? "tails" : "histogram", path);
}

int main(int argc, char **argv)
{
  opts o = parse(argc, argv);
  gg_context *ctx;
  if (gg_context_open(&ctx, NULL)) {
    printf("no GPU: %s\n", gg_error_detail());
    return 77;
  }
  host_setup(&o);
  gg_module *app, *bare;
  if (gg_module_load(ctx, &gg_module_app, &app) || gg_module_load(ctx, &gg_module_soak_bench, &bare))
    die("module");
  /* every array before the first session (gg_session.h) */
  static float hx[N];
  double want = 0;
  const float gain = 1.25f;
  for (int i = 0; i < N; i++) {
    hx[i] = (float)((i * 37) % 101 - 50) / 64.0f; /* exact in binary: y = gain * x exact */
    want += (double)(gain * hx[i]) * (double)(gain * hx[i]);
  }
  gg_array *x, *y, *e;
  if (gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof hx, &x) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof hx, &y) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float), &e) ||
      gg_copy_from_host(x, 0, hx, sizeof hx, NULL))
    die("arrays");
  printf("device: %s (%s); app frame \"step\" n = %d, %llu frames; "
         "floor: the bare loop, %llu frames\n\n", gg_context_device_name(ctx),
         gg_context_arch(ctx), N, (unsigned long long)o.frames,
         (unsigned long long)o.floor_frames);
  gg_device_times times = o.no_times ? GG_TIMES_OFF : GG_TIMES_ON;

  if (o.cost) /* device times' price at p50: the bare loop with and without */
    measure_cost(bare, o.cost_frames);

  gg_stats floor_s, app_s;
  loop fl = {"bare loop", NULL, 0, {{0}}, 0};
  loop al = {"app step", NULL, 0, {gg_arg_f32(gain), gg_arg_array(x), gg_arg_array(y),
                                   gg_arg_array(e), gg_arg_i64(N)}, 5};
  /* the app's layout: as given, or the tuner's choice among app.lua's
     persistent kernels (before any session is open: docs/tuning.md) */
  const char *layout = o.layout;
  int blocks = 0;
  if (!strcmp(layout, "auto")) {
    gg_tuned t;
    if (gg_session_tune(app, "step", al.args, al.nargs, NULL, &t))
      die("tuning");
    gg_tuned_print(&t, stdout);
    layout = t.kernel;
    blocks = t.blocks;
  }
  printf("app frame on \"%s\"%s\n\n", layout, blocks ? " (the tuner's blocks)" : "");
  open_loop(&fl, bare, "bare", "tick", o.floor_frames, times, 0, 0);
  open_loop(&al, app, layout, "step", o.frames, times, o.deadline, blocks);
  host_noise noise;
  host_noise_begin(&noise, o.pin);
  const uint64_t t0 = gg_rt_now_ns();
  alternate(&fl, o.floor_frames, &al, o.frames, o.chunk);
  const double secs = (double)(gg_rt_now_ns() - t0) / 1e9;
  host_noise_end(&noise);
  stats_of(&fl, &floor_s);
  stats_of(&al, &app_s);
  print_header();
  print_stats("floor: bare loop", &floor_s);
  print_stats("app: step", &app_s);
  print_rates(&fl, &floor_s, &al, &app_s);
  close_loop(&fl);
  if (o.hist)
    write_csv(&al, o.hist, 0);
  if (o.tails)
    write_csv(&al, o.tails, 1);
  close_loop(&al);
  printf("\n");
  host_noise_print(&noise, stdout, secs);
  printf("\napp p99.99 / floor p99.99 = %.3f (goal <= 1.1); max %.2f us vs %.2f us\n",
         app_s.p9999_ns / floor_s.p9999_ns, app_s.max_ns / 1e3, floor_s.max_ns / 1e3);

  float got = 0;
  if (gg_copy_to_host(&got, e, 0, sizeof got, NULL))
    die("reading e");
  if (!(fabs(got - want) <= 1e-4 * fabs(want))) {
    fprintf(stderr, "WRONG: e = %.8g, the CPU gives %.8g\n", got, want);
    return 1;
  }
  printf("e = %.6g matches the CPU\n", got);
  gg_context_free(ctx);
  return 0;
}
