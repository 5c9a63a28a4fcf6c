/*
 * test_slot_gpu.c - frames whose input travels in the mailbox slot
 * (space = "slot", tests/frames/slot_gpu.lua) on the GPU: every layout
 * (one block of 256 and of 1024 threads, many blocks, thread groups,
 * hybrid; single, double and ring buffering), thousands of frames with
 * varying inputs and sizes from 1 to each view's max (powers of two and
 * not), every result compared with a CPU reference (exact: integers).
 *
 * Right after gg_session_start the host overwrites its input array with
 * garbage: the slot already holds the frame's elements, so a result
 * computed from anything but the slot's copy shows.  Also refused: more
 * elements than the slot holds, and a device array (the host cannot read
 * it to fill the slot).  Label gpu; exit 77 without one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "slot_gpu.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define NSETS 4
#define FRAMES 3000

static gg_context *ctx;
static gg_module *mod;

enum { K_SL32, K_SLM, K_SLK, K_SLH, NKINDS };
static const char *const kind_names[NKINDS] = {"sl32", "slm", "slk", "slh"};
static const int max_of[NKINDS] = {1000, 1000, 2500, 1000}; /* slot_gpu.lua's max */

/* One buffer set per frame in flight: the input in host memory (the
 * slot's source), y in device and in mapped memory, e in device memory. */
typedef struct set {
  gg_array *x, *k, *y_dev, *y_map, *e;
  int kind, n;
  float gain;
  float xs[2500];  /* the frame's input as the host wrote it, for slm's y */
  uint32_t want;   /* the expected result's bits */
} set;
static set sets[NSETS];
static int cmd_of[NKINDS];

static const int sizes[] = {1, 2, 31, 32, 33, 255, 256, 257, 777, 1000, 1023, 2047, 2500};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void fill(set *s, long f)
{
  s->kind = (int)(f % NKINDS);
  s->n = sizes[(f / NKINDS) % NSIZES] - (int)(f % 2);
  if (s->n > max_of[s->kind]) s->n = max_of[s->kind] - (int)(f % 5);
  if (s->n < 1) s->n = 1;
  s->gain = (float)(1 + f % 7); /* |sums| < 2^24: exact in any order */
  float *x = gg_array_host(s->x);
  int32_t *k = gg_array_host(s->k);
  double sum = 0;
  for (int i = 0; i < s->n; i++) {
    int v = (int)((i * 37 + f * 11) % 61) - 30;
    x[i] = s->xs[i] = (float)v;
    k[i] = v;
  }
  for (int i = 0; i < s->n; i++) {
    if (s->kind == K_SLH)
      sum += (i > 0 ? x[i - 1] : 0) + 2.0 * x[i] + (i + 1 < s->n ? x[i + 1] : 0);
    else if (s->kind == K_SLK)
      sum += k[i];
    else
      sum += (double)s->gain * x[i];
  }
  if (s->kind == K_SLK) {
    int32_t v = (int32_t)sum;
    memcpy(&s->want, &v, 4);
  } else {
    float v = (float)sum;
    memcpy(&s->want, &v, 4);
  }
  if (s->kind == K_SLM) memset(gg_array_host(s->y_map), 0xff, (size_t)s->n * 4);
}

static void start(gg_session *ss, set *s)
{
  gg_arg a[5];
  int na = 0;
  if (s->kind == K_SL32 || s->kind == K_SLM) {
    a[na++] = gg_arg_f32(s->gain);
    a[na++] = gg_arg_array(s->x);
    a[na++] = gg_arg_array(s->kind == K_SL32 ? s->y_dev : s->y_map);
  } else if (s->kind == K_SLK) {
    a[na++] = gg_arg_array(s->k);
  } else {
    a[na++] = gg_arg_array(s->x);
    a[na++] = gg_arg_array(s->y_dev);
  }
  a[na++] = gg_arg_array(s->e);
  a[na++] = gg_arg_i64(s->n);
  CHECK_OK(gg_session_start(ss, cmd_of[s->kind], a, na, NULL));
  /* the slot holds the frame's copy now: the host's arrays are free */
  memset(gg_array_host(s->x), 0x7f, (size_t)max_of[K_SLK] * 4);
  memset(gg_array_host(s->k), 0x55, (size_t)max_of[K_SLK] * 4);
}

static void check(gg_session *ss, const set *s, long f, const char *layout)
{
  uint32_t got = 0;
  CHECK_OK(gg_session_result(ss, &got, 4));
  if (got != s->want) {
    fprintf(stderr, "%s frame %ld (%s, n = %d): result bits %08x, want %08x\n", layout, f,
            kind_names[s->kind], s->n, got, s->want);
    exit(1);
  }
  if (s->kind == K_SLM) { /* release ack: y in mapped memory is visible too */
    const float *y = gg_array_host(s->y_map);
    for (int i = 0; i < s->n; i++)
      if (y[i] != s->gain * s->xs[i]) {
        fprintf(stderr, "%s frame %ld: y[%d] = %g, want %g\n", layout, f, i, y[i],
                s->gain * s->xs[i]);
        exit(1);
      }
  }
}

static void refused(gg_session *ss, const gg_arg *a, int na, const char *what)
{
  if (gg_session_start(ss, cmd_of[K_SL32], a, na, NULL) != GG_ERR_INVALID) {
    fprintf(stderr, "%s was not refused\n", what);
    exit(1);
  }
  printf("  refused (%s): %s\n", what, gg_error_detail());
}

static void refusals(gg_session *ss)
{
  gg_arg a[5] = {gg_arg_f32(1), gg_arg_array(sets[0].x), gg_arg_array(sets[0].y_dev),
                 gg_arg_array(sets[0].e), gg_arg_i64(max_of[K_SL32] + 1)};
  refused(ss, a, 5, "one element more than the slot's max");
  a[1] = gg_arg_array(sets[0].y_dev);
  a[4] = gg_arg_i64(10);
  refused(ss, a, 5, "a device array for a view in the slot");
}

static void run_layout(const char *name)
{
  gg_session *ss;
  gg_session_options o = {0};
  o.terminate_ms = 2000;
  CHECK_OK(gg_session_open(mod, name, &o, &ss));
  for (int i = 0; i < NKINDS; i++) CHECK_OK(gg_session_command(ss, kind_names[i], &cmd_of[i]));
  refusals(ss);
  int depth = gg_session_nslots(ss);
  long started = 0, done = 0;
  while (done < FRAMES) {
    while (started < FRAMES && started - done < depth) { /* fill the slots */
      set *s = &sets[started % NSETS];
      fill(s, started);
      start(ss, s);
      started++;
    }
    CHECK_OK(gg_session_wait(ss, WAIT_NS));
    check(ss, &sets[done % NSETS], done, name);
    done++;
  }
  int blocks = gg_session_blocks(ss);
  CHECK_OK(gg_session_terminate(ss));
  gg_session_free(ss);
  printf("%s (%d blocks, %d slots): %d frames, every result as the CPU computed it\n", name,
         blocks, depth, FRAMES);
}

int main(void)
{
  if (gg_context_open(&ctx, NULL)) {
    fprintf(stderr, "no GPU: %s\n", gg_error_detail());
    return 77;
  }
  CHECK_OK(gg_module_load(ctx, &gg_module_slot_gpu, &mod));
  for (int i = 0; i < NSETS; i++) { /* allocated before any session opens */
    set *s = &sets[i];
    CHECK_OK(gg_array_alloc(ctx, i % 2 ? GG_SPACE_HOST : GG_SPACE_MAPPED, 2500 * 4, &s->x));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_HOST, 2500 * 4, &s->k));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 2500 * 4, &s->y_dev));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 2500 * 4, &s->y_map));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 4, &s->e));
  }
  const char *const layouts[] = {"slot_one_block", "slot_one_block_1024", "slot_many_blocks",
                                 "slot_thread_groups", "slot_hybrid"};
  for (int i = 0; i < 5; i++) run_layout(layouts[i]);
  for (int i = 0; i < NSETS; i++) {
    gg_array *all[] = {sets[i].x, sets[i].k, sets[i].y_dev, sets[i].y_map, sets[i].e};
    for (int j = 0; j < 5; j++) gg_array_free(all[j]);
  }
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
