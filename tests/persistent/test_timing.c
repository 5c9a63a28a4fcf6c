/*
 * test_timing.c - where a frame's time goes, without a GPU.
 *
 * 1. The streamed statistics (runtime/session_stats.c) against a CPU
 *    reference, the sorted array of every sample: percentiles exact where
 *    their rank is among the kept frames, within a histogram bucket's
 *    half-width elsewhere; the kept frames are the largest; mean, min,
 *    max exact.  Sizes that are not powers of two.
 * 2. The clock offset and the split on synthetic frames whose true parts
 *    are known: exact on symmetric frames, following a drifting offset,
 *    and the late part named.
 * 3. A session over the fake backend (tests/runtime/fake_gpu.h), whose
 *    "kernel" is a host thread playing the persistent loop with device
 *    times on a clock offset from the host's: the offset estimate lies
 *    within half the smallest round trip of the truth, the GPU part is at
 *    least what the kernel spent, three frames made late on purpose (late
 *    to see the post, long on the GPU, late to acknowledge) are each
 *    named for the part that made them late, by the deadline's callback,
 *    the deadline's counts and the exact tails; the error statuses of a
 *    deadline <= 0 and of statistics asked of a session that records none;
 *    GG_TIMES_OFF leaves the kernel's flag off and the parts unknown.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "desc_check.h"
#include "fake_gpu.h"
#include "gg_session.h"
#include "session_stats.h"

static int failures;
#define EXPECT(c, ...)                                                   \
  do {                                                                   \
    if (!(c)) {                                                          \
      failures++;                                                        \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);                \
      printf(__VA_ARGS__);                                               \
      printf("\n");                                                      \
    }                                                                    \
  } while (0)

static uint64_t now_ns(void) { return gg_rt_now_ns(); }

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t ref_rank(const uint64_t *sorted, uint64_t n, double q)
{
  double r = q * (double)n;
  uint64_t k = (uint64_t)r;
  if ((double)k < r)
    k++;
  if (k < 1)
    k = 1;
  return sorted[(k > n ? n : k) - 1];
}

/* ---- 1. streamed statistics against the sorted samples ---- */

static void hist_bounds_hold(void)
{
  for (uint64_t v = 0; v < (1u << 20); v = v < 4096 ? v + 1 : v + v / 97 + 1) {
    uint64_t lo, hi;
    ggr_hist_bounds(ggr_hist_bucket(v), &lo, &hi);
    EXPECT(lo <= v && v < hi, "value %llu in bucket [%llu, %llu)", (unsigned long long)v,
           (unsigned long long)lo, (unsigned long long)hi);
    EXPECT(hi - lo <= 1 || (double)(hi - lo) <= (double)lo / 128.0 + 1e-9,
           "bucket [%llu, %llu) wider than 1/128", (unsigned long long)lo, (unsigned long long)hi);
  }
  EXPECT(ggr_hist_bucket(UINT64_MAX) == GGR_HIST_BUCKETS - 1, "the top bucket takes the rest");
}

static void against_reference(uint64_t n, uint32_t tail_cap)
{
  uint64_t *v = malloc(n * sizeof *v), *sorted = malloc(n * sizeof *v);
  ggr_stats *st = malloc(sizeof *st);
  if (!v || !sorted || !st || ggr_stats_init(st, n, tail_cap)) {
    EXPECT(0, "out of memory");
    return;
  }
  /* a body around 2.5 us and a tail out to milliseconds, deterministic */
  uint64_t x = 88172645463325252ull;
  double sum = 0;
  for (uint64_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t t = 2000 + x % 1000;
    if (x % 1000 < 3)
      t += (x >> 20) % 1400000;
    v[i] = t;
    sum += (double)t;
    ggr_frame_in in = {i + 1, 1000, 1000 + t, 0, 0, 0};
    gg_frame_time ft = {i + 1, (double)t, {0, 0, 0}, GG_PART_UNKNOWN, 0};
    ggr_stats_add(st, &in, &ft);
  }
  memcpy(sorted, v, n * sizeof *v);
  qsort(sorted, n, sizeof *sorted, cmp_u64);
  gg_stats s;
  ggr_stats_summary(st, NULL, &s);
  uint32_t kept = st->tail_n;
  EXPECT(s.count == n, "count %llu", (unsigned long long)s.count);
  EXPECT(s.min_ns == (double)sorted[0] && s.max_ns == (double)sorted[n - 1], "min/max");
  EXPECT(fabs(s.mean_ns - sum / (double)n) < 1e-6, "mean %f vs %f", s.mean_ns, sum / (double)n);
  EXPECT(s.exact_from == n - kept, "exact from %llu", (unsigned long long)s.exact_from);
  const double q[] = {0.5, 0.99, 0.999, 0.9999, 0.999999};
  const double got[] = {s.p50_ns, s.p99_ns, s.p999_ns, s.p9999_ns, s.p999999_ns};
  for (int i = 0; i < 5; i++) {
    double want = (double)ref_rank(sorted, n, q[i]);
    double r = ceil(q[i] * (double)n);
    if (r > (double)(n - kept))
      EXPECT(got[i] == want, "n %llu K %u: q %g exact: %f, want %f", (unsigned long long)n,
             kept, q[i], got[i], want);
    else
      EXPECT(fabs(got[i] - want) <= want / 256.0 + 1.0, "n %llu K %u: q %g: %f, want %f",
             (unsigned long long)n, kept, q[i], got[i], want);
  }
  gg_frame_time *t = malloc((size_t)kept * sizeof *t);
  size_t nt = t ? ggr_stats_tails(st, t, kept) : 0;
  EXPECT(nt == kept, "tails %zu of %u", nt, kept);
  for (size_t i = 0; i < nt; i++)
    EXPECT(t[i].total_ns == (double)sorted[n - 1 - i], "tail %zu: %f, want %llu", i,
           t[i].total_ns, (unsigned long long)sorted[n - 1 - i]);
  /* frames past the limit are not recorded */
  ggr_frame_in in = {n + 1, 0, 999999999, 0, 0, 0};
  gg_frame_time ft = {n + 1, 999999999.0, {0, 0, 0}, GG_PART_UNKNOWN, 0};
  ggr_stats_add(st, &in, &ft);
  ggr_stats_summary(st, NULL, &s);
  EXPECT(s.count == n && s.max_ns == (double)sorted[n - 1], "a frame past the limit counted");
  ggr_stats_reset(st);
  ggr_stats_summary(st, NULL, &s);
  EXPECT(s.count == 0 && s.max_ns == 0, "reset");
  free(t);
  ggr_stats_free(st);
  free(st);
  free(v);
  free(sorted);
}

/* ---- 2. the offset and the split on frames of known parts ---- */

static void split_known(void)
{
  ggr_split sp;
  ggr_split_init(&sp);
  const int64_t theta = 1700000000000000000ll - 5000000000ll; /* gpu - host */
  uint64_t t0 = 1000000000ull;
  gg_frame_time ft;
  int64_t drift = 0;
  for (uint64_t f = 1; f <= 5000; f++) {
    /* one frame in 7 is symmetric (700 each way), the others slower back */
    uint64_t a = 700, g = 1500 + f % 13, b = f % 7 ? 700 + 90 * (f % 5) + 150 : 700;
    if (f > 2048)
      drift = (int64_t)(f - 2048) / 10; /* 0.1 ns per frame: 100 ppm at 1 us a frame */
    ggr_frame_in in = {f, t0, t0 + a + g + b, (uint64_t)((int64_t)t0 + (int64_t)a + theta + drift),
                       g, 1};
    ggr_split_frame(&sp, &in, &ft);
    if (f >= 7 && f <= 2048 && f % 7 == 0)
      EXPECT(ft.part_ns[0] == 700 && ft.part_ns[1] == (double)g && ft.part_ns[2] == 700,
             "frame %llu: %f %f %f", (unsigned long long)f, ft.part_ns[0], ft.part_ns[1],
             ft.part_ns[2]);
    EXPECT(ft.part_ns[0] + ft.part_ns[1] + ft.part_ns[2] == ft.total_ns, "parts sum");
    if (f > 3072) /* one window behind a drift of 0.1 ns a frame: ~103 ns */
      EXPECT(fabs(ft.part_ns[0] - (double)a) <= 110, "frame %llu: to_gpu %f, want %llu",
             (unsigned long long)f, ft.part_ns[0], (unsigned long long)a);
    t0 += 5000;
  }
  EXPECT(sp.min_rtt == 1400, "min rtt %llu", (unsigned long long)sp.min_rtt);
  /* a frame late on the way back is named so */
  ggr_frame_in late = {5001, t0, t0 + 700 + 1500 + 90000, 0, 1500, 1};
  late.seen = (uint64_t)((int64_t)t0 + 700 + theta + drift);
  ggr_split_frame(&sp, &late, &ft);
  EXPECT(ft.late == GG_PART_TO_HOST, "late part %s", gg_part_name(ft.late));
  ggr_frame_in untimed = {5002, t0, t0 + 5000, 0, 0, 0};
  ggr_split_frame(&sp, &untimed, &ft);
  EXPECT(ft.late == GG_PART_UNKNOWN && ft.part_ns[0] == 0, "untimed frame");
}

/* ---- 3. a session over the fake backend ---- */

/* Made late after the first offset window (1024 frames), by far more than
 * a loaded machine's scheduling noise. */
enum { LATE_TO_GPU = 1537, LATE_GPU = 1553, LATE_TO_HOST = 1571, LATE_MS = 100, FRAMES = 3001 };
/* This frame's device times land 2 ms after its ack, when the wait has
 * returned: the session must take them at the next start (the host waits
 * 10 ms before it), not count the frame untimed. */
enum { TIMES_LATE = 2003 };
#define DEADLINE_NS 50000000ll
#define BUSY_NS 3000ull
static const int64_t THETA = 1700000000000000000ll; /* the emulated GPU clock's lead */

static struct {
  gg_persist_params pp;
  pthread_t thread;
  _Atomic int running;
  void *stream;
} emu;

static _Atomic uint64_t *u64p(char *p) { return (_Atomic uint64_t *)(void *)p; }
static uint64_t dev_now(void) { return (uint64_t)((int64_t)now_ns() + THETA); }
static void sleep_ms(int ms)
{
  struct timespec ts = {0, (long)ms * 1000000L};
  nanosleep(&ts, NULL);
}
static uint64_t tagged(uint64_t frame, uint64_t bits) { return GG_MBOX_ACK(frame, bits); }

/* The persistent loop in C11 atomics, with device times as
 * templates/cuda/persistent.cuh stores them. */
static void *kernel(void *arg)
{
  (void)arg;
  char *mbox = emu.pp.mbox;
  atomic_store_explicit((_Atomic uint32_t *)(void *)(mbox + GG_MBOX_STATE_OFF),
                        GG_MBOX_STATE_RUNNING, memory_order_release);
  uint64_t frame;
  for (frame = 1;; frame++) {
    char *slot = mbox + GG_MBOX_SLOTS_OFF + (size_t)((frame - 1) % emu.pp.nslots) *
                                                emu.pp.slot_stride;
    uint64_t w;
    while (w = atomic_load_explicit(u64p(slot), memory_order_acquire),
           w != GG_MBOX_WORD_ABORT && GG_MBOX_ACK_TAG(w) != (uint32_t)frame)
      sched_yield();
    if (w == GG_MBOX_WORD_ABORT)
      break;
    /* the post waits to be seen: LATE_MS from when it arrived (a sleep
       before the poll counted from the last frame's end, and a host
       descheduled for 8 ms made the frame 92 ms under load) */
    if (frame == LATE_TO_GPU)
      sleep_ms(LATE_MS);
    uint64_t seen = dev_now();
    uint64_t spend = frame == LATE_GPU ? LATE_MS * 1000000ull : BUSY_NS;
    while (dev_now() - seen < spend) {
    }
    char *done = slot + GG_MBOX_DONE_IN_SLOT(emu.pp.slot_stride);
    uint64_t busy = dev_now() - seen;
    if (frame == LATE_TO_HOST) /* the ack is slow to reach the host */
      sleep_ms(LATE_MS);
    atomic_store_explicit(u64p(done + GG_MBOX_ACK2_OFF), tagged(frame, 0), memory_order_relaxed);
    atomic_store_explicit(u64p(done), tagged(frame, 0), memory_order_release);
    if (emu.pp.flags & GG_PERSIST_TIMES) { /* after the ack, as the templates do */
      if (frame == TIMES_LATE)
        sleep_ms(2);
      atomic_store_explicit(u64p(done + GG_MBOX_SEEN_LO_OFF), tagged(frame, seen),
                            memory_order_relaxed);
      atomic_store_explicit(u64p(done + GG_MBOX_SEEN_HI_OFF), tagged(frame, seen >> 32),
                            memory_order_relaxed);
      atomic_store_explicit(u64p(done + GG_MBOX_BUSY_OFF), tagged(frame, busy),
                            memory_order_relaxed);
    }
  }
  *(volatile uint64_t *)(void *)(mbox + GG_MBOX_FRAMES_OFF) = frame - 1;
  *(volatile uint32_t *)(void *)(mbox + GG_MBOX_REASON_OFF) = GG_MBOX_EXIT_ABORT;
  atomic_store_explicit((_Atomic uint32_t *)(void *)(mbox + GG_MBOX_STATE_OFF),
                        GG_MBOX_STATE_EXITED, memory_order_release);
  atomic_store(&emu.running, 0);
  return NULL;
}

static int e_launch(void *fn, unsigned grid, unsigned block, unsigned smem, void *s, void **p)
{
  (void)fn, (void)grid, (void)block, (void)smem;
  memcpy(&emu.pp, p[0], sizeof emu.pp);
  emu.stream = s;
  atomic_store(&emu.running, 1);
  return pthread_create(&emu.thread, NULL, kernel, NULL) ? 1 : 0;
}
static int e_stream_create(void **s)
{
  *s = malloc(1);
  return *s ? 0 : 2;
}
static int e_stream_destroy(void *s)
{
  free(s);
  return 0;
}
static int e_stream_query(void *s)
{
  if (s && s == emu.stream && atomic_load(&emu.running))
    return GGR_E_NOT_READY;
  return 0;
}

static gg_module mod;
static gg_kernel kernels[16];
static void *persistent_fn[4];

static struct {
  int calls;
  uint64_t frame[64];
  gg_part late[64];
} cb;
static void on_late(void *user, const gg_frame_time *t)
{
  (void)user;
  /* a loaded machine makes frames of its own late: kept are the three */
  int ours = t->frame == LATE_TO_GPU || t->frame == LATE_GPU || t->frame == LATE_TO_HOST;
  if (ours && cb.calls < 64) {
    cb.frame[cb.calls] = t->frame;
    cb.late[cb.calls] = t->late;
    cb.calls++;
  }
}

static gg_part part_of(uint64_t frame)
{
  return frame == LATE_TO_GPU ? GG_PART_TO_GPU : frame == LATE_GPU ? GG_PART_GPU : GG_PART_TO_HOST;
}

static void session_run(gg_context *ctx)
{
  /* the host yields while it waits: two spinning threads on a loaded
   * machine would make their own late frames */
  gg_session_options opt = {.buffering = 1, .wait_mode = GG_WAIT_YIELD, .spin_ns = 2000,
                            .stats_frames = UINT64_MAX, .stats_tail = 100};
  gg_session *s = NULL;
  gg_status st = gg_session_open(&mod, "one", &opt, &s);
  EXPECT(st == GG_OK, "open: %s", gg_error_detail());
  if (st)
    return;
  EXPECT(emu.pp.flags == GG_PERSIST_TIMES, "statistics turn device times on: flags %u",
         emu.pp.flags);
  gg_frame_time ft;
  EXPECT(gg_session_last_frame(s, &ft) == GG_ERR_STATE, "no frame yet");
  EXPECT(gg_session_deadline(s, 0, NULL, NULL) == GG_ERR_INVALID &&
             strstr(gg_error_detail(), "positive"), "deadline 0: %s", gg_error_detail());
  EXPECT(gg_session_deadline(s, -5, NULL, NULL) == GG_ERR_INVALID, "deadline < 0");
  EXPECT(gg_session_deadline(NULL, 5, NULL, NULL) == GG_ERR_INVALID, "no session");
  EXPECT(gg_session_deadline(s, DEADLINE_NS, on_late, NULL) == GG_OK, "deadline");
  for (int f = 1; f <= FRAMES && !st; f++) {
    st = gg_session_start_packed(s, 0, NULL, 0, NULL);
    if (!st)
      st = gg_session_wait(s, 10000000000ll);
    if (f == TIMES_LATE)
      sleep_ms(10);
  }
  EXPECT(st == GG_OK, "frames: %s", gg_error_detail());
  gg_stats gs; /* first: it takes a last frame whose device times came after its wait */
  EXPECT(gg_session_stats(s, &gs) == GG_OK, "stats");
  EXPECT(gg_session_last_frame(s, &ft) == GG_OK && ft.frame == FRAMES, "last frame");
  EXPECT(gs.count == FRAMES && gs.timed == FRAMES, "counted %llu, timed %llu",
         (unsigned long long)gs.count, (unsigned long long)gs.timed);
  /* NTP's bound: the estimate is off by at most half the round trip of
   * the frame it came from (+ 256: a double's step at 1.7e18) */
  double err = fabs(gs.offset_ns - (double)THETA);
  EXPECT(gs.min_rtt_ns > 0 && gs.offset_rtt_ns >= gs.min_rtt_ns &&
             err <= gs.offset_rtt_ns / 2 + 256,
         "offset off by %.0f ns, its frame's round trip %.0f ns", err, gs.offset_rtt_ns);
  EXPECT(gs.part[GG_PART_GPU].p50_ns >= (double)BUSY_NS * 0.99 &&
             gs.part[GG_PART_GPU].max_ns >= LATE_MS * 1e6,
         "GPU part p50 %.0f, max %.0f", gs.part[GG_PART_GPU].p50_ns, gs.part[GG_PART_GPU].max_ns);
  EXPECT(gs.clock_step_ns >= 1 && gs.busy_min_ns >= BUSY_NS, "clock step %.0f, busy min %.0f",
         gs.clock_step_ns, gs.busy_min_ns);
  /* the three frames made late are late, and named for their part (a
   * loaded machine may add late frames of its own: counted, not named) */
  EXPECT(gs.late >= 3 && gs.late_worst.total_ns >= LATE_MS * 1e6, "late %llu, worst %.0f",
         (unsigned long long)gs.late, gs.late_worst.total_ns);
  int named = 0;
  for (int i = 0; i < cb.calls && i < 64; i++)
    if (cb.frame[i] == LATE_TO_GPU || cb.frame[i] == LATE_GPU || cb.frame[i] == LATE_TO_HOST) {
      named++;
      EXPECT(cb.late[i] == part_of(cb.frame[i]), "frame %llu named %s",
             (unsigned long long)cb.frame[i], gg_part_name(cb.late[i]));
    }
  EXPECT(named == 3, "the callback saw %d of the 3 late frames (%d of ours)", named, cb.calls);
  EXPECT(gg_session_late(s) == gs.late, "gg_session_late");
  EXPECT(gs.late_by[GG_PART_TO_GPU] >= 1 && gs.late_by[GG_PART_GPU] >= 1 &&
             gs.late_by[GG_PART_TO_HOST] >= 1, "late by part %llu %llu %llu",
         (unsigned long long)gs.late_by[0], (unsigned long long)gs.late_by[1],
         (unsigned long long)gs.late_by[2]);
  gg_frame_time tails[100];
  size_t nt = 0;
  EXPECT(gg_session_tails(s, tails, 100, &nt) == GG_OK && nt == 100, "tails %zu", nt);
  for (size_t i = 0; i < 3 && i < nt; i++) {
    EXPECT(tails[i].total_ns >= LATE_MS * 1e6, "tail %zu: %.0f", i, tails[i].total_ns);
    if (tails[i].frame == LATE_TO_GPU || tails[i].frame == LATE_GPU ||
        tails[i].frame == LATE_TO_HOST)
      EXPECT(tails[i].late == part_of(tails[i].frame), "tail frame %llu named %s",
             (unsigned long long)tails[i].frame, gg_part_name(tails[i].late));
  }
  EXPECT(gs.tails_cover_p999 && gs.tail_over_p999 >= 3 &&
             gs.tail_late[0] + gs.tail_late[1] + gs.tail_late[2] == gs.tail_over_p999,
         "every frame above p99.9 attributed: %llu", (unsigned long long)gs.tail_over_p999);
  FILE *f = tmpfile();
  char line[128] = {0};
  EXPECT(f && gg_session_histogram_csv(s, f, 1000) == GG_OK, "histogram");
  if (f) {
    rewind(f);
    EXPECT(fgets(line, sizeof line, f) &&
               strcmp(line, "bucket_lo_ns,bucket_hi_ns,count,to_gpu,gpu,to_host\n") == 0,
           "histogram header %s", line);
    fclose(f);
  }
  f = tmpfile();
  EXPECT(f && gg_session_tails_csv(s, f) == GG_OK, "tails csv");
  if (f) {
    rewind(f);
    EXPECT(fgets(line, sizeof line, f) &&
               strcmp(line, "frame,total_ns,to_gpu_ns,gpu_ns,to_host_ns,late\n") == 0,
           "tails header %s", line);
    fclose(f);
  }
  gg_session_stats_reset(s);
  EXPECT(gg_session_late(s) == 0, "reset clears the late count");
  EXPECT(gg_session_terminate(s) == GG_OK, "terminate: %s", gg_error_detail());
  gg_session_free(s);
  pthread_join(emu.thread, NULL);
  (void)ctx;
}

/* No statistics: asking for them is an error with its detail; device
 * times off leaves the flag off, and a deadline still counts. */
static void session_quiet(void)
{
  gg_session_options opt = {.buffering = 2, .device_times = GG_TIMES_OFF};
  gg_session *s = NULL;
  gg_status st = gg_session_open(&mod, "one", &opt, &s);
  EXPECT(st == GG_OK, "open: %s", gg_error_detail());
  if (st)
    return;
  EXPECT(emu.pp.flags == 0, "device times off: flags %u", emu.pp.flags);
  gg_stats gs;
  EXPECT(gg_session_stats(s, &gs) == GG_ERR_STATE && strstr(gg_error_detail(), "stats_frames"),
         "stats of a session without: %s", gg_error_detail());
  EXPECT(gg_session_histogram_csv(s, stderr, 0) == GG_ERR_STATE, "histogram without stats");
  size_t n = 7;
  EXPECT(gg_session_tails(s, NULL, 0, &n) == GG_ERR_STATE && n == 0, "tails without stats");
  EXPECT(gg_session_deadline(s, 1, NULL, NULL) == GG_OK, "a 1 ns deadline");
  for (int f = 1; f <= 5 && !st; f++) {
    st = gg_session_start_packed(s, 0, NULL, 0, NULL);
    if (!st)
      st = gg_session_wait(s, 10000000000ll);
    if (f == TIMES_LATE)
      sleep_ms(10);
  }
  gg_frame_time ft;
  EXPECT(gg_session_late(s) == 5, "every frame late: %llu", (unsigned long long)gg_session_late(s));
  EXPECT(gg_session_last_frame(s, &ft) == GG_OK && ft.late == GG_PART_UNKNOWN &&
             ft.part_ns[GG_PART_GPU] == 0, "no device times: the part is unknown");
  EXPECT(gg_session_deadline(s, INT64_MAX, NULL, NULL) == GG_OK, "deadline off");
  st = gg_session_start_packed(s, 0, NULL, 0, NULL);
  if (!st)
    st = gg_session_wait(s, 10000000000ll);
  EXPECT(st == GG_OK && gg_session_late(s) == 5, "off: no more late frames");
  gg_session_free(s);
  pthread_join(emu.thread, NULL);
}

int main(void)
{
  hist_bounds_hold();
  against_reference(10007, 100);   /* most percentiles from the histogram */
  against_reference(777, 0);       /* every frame kept: all exact */
  against_reference(100003, 1000); /* p99.9 of 100003 among the 1000 kept */
  split_known();

  gg_context *ctx = fake_context();
  ctx->be->launch = e_launch;
  ctx->be->stream_create = e_stream_create;
  ctx->be->stream_destroy = e_stream_destroy;
  ctx->be->stream_query = e_stream_query;
  mod.ctx = ctx;
  mod.desc = &gg_module_desc_check;
  for (int i = 0; i < gg_module_desc_check.nkernels && i < 16; i++) {
    kernels[i].mod = &mod;
    kernels[i].desc = &gg_module_desc_check.kernels[i];
    if (ggr_kernel_check_layout(&kernels[i]))
      EXPECT(0, "kernel %d: %s", i, gg_error_detail());
  }
  mod.kernels = kernels;
  mod.persistent_fn = persistent_fn;
  session_run(ctx);
  session_quiet();

  printf("%s: %d failures\n", failures ? "FAIL" : "timing ok", failures);
  return failures ? 1 : 0;
}
