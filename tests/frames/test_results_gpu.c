/*
 * test_results_gpu.c - results in the acknowledgement on the GPU
 * (tests/frames/results_gpu.lua): frames returning an f32, f64, i32 or u64
 * result inside their ack, read with gg_session_result, on one_block,
 * many_blocks and hybrid persistent kernels with a ring of 4 slots (up to
 * 4 results in flight).  Thousands of frames with varying inputs and sizes
 * (powers of two and not); every result is compared with a CPU reference
 * (exact: every value is an integer or a short binary fraction).  The
 * result views are DEVICE arrays the host cannot read: a right value can
 * only have come through the ack.  Also: a host-visible array passed for
 * a written view of a relaxed-ack frame is refused, a frame whose ack
 * keeps its release (w32, r32m) takes a mapped array for a view declared
 * in device memory and a device one for a view declared mapped, and
 * gg_session_result refuses a wrong size.  Label gpu; exit 77 without one.  GG_FRAMES_QUICK=1
 * runs 400 frames per layout instead of 4000 (the sanitizers).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "results_gpu.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define MAXN 65536
#define NSETS 4
#define FRAMES 4000

static gg_context *ctx;
static gg_module *mod;


/* r32d: the sum, then a second stage doubles it (two writers of e) */
enum { K_R32, K_R32M, K_R64, K_RI32, K_RU64, K_R32D, NKINDS };
static const char *const kind_names[NKINDS] = {"r32", "r32m", "r64", "ri32", "ru64", "r32d"};

/* One buffer set per slot: inputs in mapped memory (the host writes
 * them), y both in device and in mapped memory, e in device memory. */
typedef struct set {
  gg_array *x, *k, *y_dev, *y_map, *e32, *e64;
  int kind, n;
  float gain;
  uint64_t want; /* the expected result's bits */
} set;
static set sets[NSETS];
static int cmd_of[NKINDS];

static const int sizes[] = {1, 1000, 4096, 4097, 32771, 65536, 777};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void fill(set *s, long f)
{
  s->kind = (int)(f % NKINDS);
  /* every kind meets every size, then (a cycle of NKINDS x NSIZES frames
     later) the sizes' neighbours below and other gains */
  const long cycle = f / (NKINDS * NSIZES);
  s->n = sizes[(f / NKINDS) % NSIZES] - (int)(cycle % 3);
  if (s->n < 1) s->n = 1;
  /* integer gains: |partial sums| <= 65536 * 30 * 7 < 2^24, so the f32
   * sum is exact in any order */
  s->gain = (float)(1 + cycle % 7);
  float *x = gg_array_host(s->x);
  int32_t *k = gg_array_host(s->k);
  double sx = 0;
  int64_t sk = 0;
  uint64_t su = 0;
  for (int i = 0; i < s->n; i++) {
    int v = (int)((i * 37 + f * 11) % 61) - 30;
    x[i] = (float)v;
    k[i] = v;
    sx += (double)(s->gain * x[i]);
    sk += v;
    su += (uint64_t)(v + 64) * 4294967311ull;
  }
  double d = 0;
  float e32 = 0;
  int32_t i32 = 0;
  s->want = 0; /* 4-byte results: the high half stays zero */
  switch (s->kind) {
  case K_R32: case K_R32M: e32 = (float)sx; memcpy(&s->want, &e32, 4); break;
  case K_R64:
    d = (double)sk * 1099511627776.0;
    memcpy(&s->want, &d, 8);
    break;
  case K_RI32: i32 = (int32_t)sk; s->want = 0; memcpy(&s->want, &i32, 4); break;
  case K_R32D: e32 = (float)(2 * sk); memcpy(&s->want, &e32, 4); break;
  default: s->want = su;
  }
  if (s->kind == K_R32M) memset(gg_array_host(s->y_map), 0xff, (size_t)s->n * 4);
}

static void start(gg_session *ss, const set *s)
{
  gg_arg a[5];
  int na = 0;
  if (s->kind == K_R32 || s->kind == K_R32M) {
    a[na++] = gg_arg_f32(s->gain);
    a[na++] = gg_arg_array(s->x);
    a[na++] = gg_arg_array(s->kind == K_R32 ? s->y_dev : s->y_map);
    a[na++] = gg_arg_array(s->e32);
  } else if (s->kind == K_R32D) {
    a[na++] = gg_arg_array(s->x);
    a[na++] = gg_arg_array(s->e32);
  } else {
    a[na++] = gg_arg_array(s->kind == K_R64 ? s->x : s->k);
    a[na++] = gg_arg_array(s->kind == K_RI32 ? s->e32 : s->e64);
  }
  a[na++] = gg_arg_i64(s->n);
  CHECK_OK(gg_session_start(ss, cmd_of[s->kind], a, na, NULL));
}

static void check(gg_session *ss, const set *s, long f, const char *layout)
{
  uint64_t got = 0;
  size_t size = s->kind == K_R64 || s->kind == K_RU64 ? 8 : 4;
  CHECK_OK(gg_session_result(ss, &got, size));
  if (got != s->want) {
    fprintf(stderr, "%s frame %ld (%s, n = %d): result bits %016llx, want %016llx\n", layout, f,
            kind_names[s->kind], s->n, (unsigned long long)got, (unsigned long long)s->want);
    exit(1);
  }
  if (s->kind == K_R32M) { /* release ack: y in mapped memory is visible too */
    const float *x = gg_array_host(s->x), *y = gg_array_host(s->y_map);
    for (int i = 0; i < s->n; i++)
      if (y[i] != s->gain * x[i]) {
        fprintf(stderr, "%s frame %ld: y[%d] = %g, want %g\n", layout, f, i, y[i], s->gain * x[i]);
        exit(1);
      }
  }
}

static void refusals(gg_session *ss)
{
  gg_arg a[5] = {gg_arg_f32(1), gg_arg_array(sets[0].x), gg_arg_array(sets[0].y_map),
                 gg_arg_array(sets[0].e32), gg_arg_i64(10)};
  /* r32's ack is relaxed: a mapped y would be read unordered */
  if (gg_session_start(ss, cmd_of[K_R32], a, 5, NULL) != GG_ERR_INVALID) {
    fprintf(stderr, "a mapped y for r32 (relaxed ack) was not refused\n");
    exit(1);
  }
  uint64_t v;
  if (gg_session_result(ss, &v, 8) != GG_ERR_STATE) {
    fprintf(stderr, "gg_session_result before any wait was not GG_ERR_STATE\n");
    exit(1);
  }
  /* w32 has no result, so its ack keeps the system-scope release: a
     mapped array stands for y (declared in device memory) and the host
     reads it after the wait.  The reverse: r32m takes a device array for
     its mapped y. */
  int w32 = -1;
  CHECK_OK(gg_session_command(ss, "w32", &w32));
  float *wx = gg_array_host(sets[0].x), *wy = gg_array_host(sets[0].y_map);
  for (int i = 0; i < 10; i++) {
    wx[i] = (float)i;
    wy[i] = -1.0f;
  }
  gg_arg w[4] = {gg_arg_f32(3), gg_arg_array(sets[0].x), gg_arg_array(sets[0].y_map),
                 gg_arg_i64(10)};
  CHECK_OK(gg_session_run(ss, w32, w, 4, WAIT_NS));
  for (int i = 0; i < 10; i++)
    if (wy[i] != 3.0f * (float)i) {
      fprintf(stderr, "w32 (release ack) with a mapped y: y[%d] = %g, want %g\n", i, wy[i],
              3.0f * (float)i);
      exit(1);
    }
  a[2] = gg_arg_array(sets[0].y_dev);
  CHECK_OK(gg_session_run(ss, cmd_of[K_R32M], a, 5, WAIT_NS));
  CHECK_OK(gg_session_run(ss, cmd_of[K_R32], a, 5, WAIT_NS));
  if (gg_session_result(ss, &v, 8) != GG_ERR_INVALID) {
    fprintf(stderr, "gg_session_result of an f32 with size 8 was not GG_ERR_INVALID\n");
    exit(1);
  }
}

static void run_layout(const char *name)
{
  gg_session *ss;
  gg_session_options o = {0};
  o.terminate_ms = 2000;
  CHECK_OK(gg_session_open(mod, name, &o, &ss));
  for (int i = 0; i < NKINDS; i++) CHECK_OK(gg_session_command(ss, kind_names[i], &cmd_of[i]));
  refusals(ss);
  /* GG_FRAMES_QUICK=1: a tenth of the frames, for the sanitizers
     (racecheck of the full run takes over 150 s); still every kind and
     size, as the frame number picks them */
  const char *q = getenv("GG_FRAMES_QUICK");
  const long frames = q && *q && strcmp(q, "0") ? FRAMES / 10 : FRAMES;
  long started = 0, done = 0;
  while (done < frames) {
    while (started < frames && started - done < NSETS) { /* fill the ring */
      set *s = &sets[started % NSETS];
      fill(s, started);
      start(ss, s);
      started++;
    }
    CHECK_OK(gg_session_wait(ss, WAIT_NS));
    check(ss, &sets[done % NSETS], done, name);
    done++;
  }
  CHECK_OK(gg_session_terminate(ss));
  gg_session_free(ss);
  printf("%s: %ld frames, every result (f32, f64, i32, u64, and a result two stages write) as the CPU computed it\n", name, frames);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  CHECK_OK(gg_module_load(ctx, &gg_module_results_gpu, &mod));
  for (int i = 0; i < NSETS; i++) { /* allocated before any session opens */
    set *s = &sets[i];
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, MAXN * 4, &s->x));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, MAXN * 4, &s->k));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, MAXN * 4, &s->y_dev));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, MAXN * 4, &s->y_map));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 4, &s->e32));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 8, &s->e64));
  }
  run_layout("res_one_block");
  run_layout("res_many_blocks");
  run_layout("res_hybrid");
  for (int i = 0; i < NSETS; i++) {
    gg_array *all[] = {sets[i].x, sets[i].k, sets[i].y_dev, sets[i].y_map, sets[i].e32, sets[i].e64};
    for (int j = 0; j < 6; j++) gg_array_free(all[j]);
  }
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
