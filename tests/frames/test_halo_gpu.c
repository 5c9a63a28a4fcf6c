/*
 * test_halo_gpu.c - frames whose stencil stages wait only for their two
 * neighbour (pseudo-)blocks (tests/frames/halo_gpu.lua: halo 1 and halo 2
 * smoothing chains, and a mix with a same-thread stage, a reduction's grid
 * barrier and a stage after it) on many_blocks with 1, 2, 3, 132 and all
 * co-resident blocks, one_block, thread_groups (64-thread pseudo-blocks)
 * and hybrid, at n = 32768, 30001 and 1000003, with a ring of 4 slots:
 * thousands of frames, each with new inputs, each checked against a CPU
 * reference (exact: every value is a short binary fraction).  A neighbour
 * wait that let a stage start before a neighbour finished writing (or
 * reading) its chunk's edge shows as a wrong element near a chunk border.
 * Where a frame's ranges fit the halo exchange's slots (two grid-stride
 * steps: 32768 and 30001 on 64 to 132 blocks and more, 32768 on the
 * 64-thread pseudo-blocks when enough co-reside) the halos travel in
 * tagged words (global/halo_exchange.cuh); elsewhere (1, 2, 3 blocks,
 * hybrid, the 1M size) the same frames wait for neighbours, and a session
 * switches between the two from one frame to the next.
 * GG_FRAMES_LONG=N: N frames per run at 32768 and 30001 instead of 600.
 * Label gpu; exit 77 without one.  GG_FRAMES_QUICK=1: 30 frames per size,
 * no 1M size (for compute-sanitizer).
 * (A stage that lies about its halo: test_faults_gpu.c, mode "lie".)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "halo_gpu.h"
#include "ring.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define MAXN 1000003
#define NSETS 4
#define SENTINEL 12345.0f

static gg_context *ctx;
static gg_module *mod;
static int failures;

typedef struct set {
  gg_array *x, *y, *e;
  int kind, n, seed;
} set;
static set sets[NSETS];
static float *ref_x, *ref_y;

enum { H1, H2, MIX, NKINDS };
static const char *const kind_names[NKINDS] = {"h1", "h2", "mix"};

static float xin(int seed, int i) { return (float)((i * 37 + seed * 11) % 61 - 30); }
static float yin(int seed, int i) { return (float)((i * 13 + seed * 7) % 41 - 20); }

/* the kernels' arithmetic, clamped at the ends as the bodies are */
static void smooth(const float *x, float *y, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = 0.25f * x[i > 0 ? i - 1 : i] + 0.5f * x[i] + 0.25f * x[i + 1 < n ? i + 1 : i];
}
static void smooth5(const float *x, float *y, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = 0.25f * (x[i >= 2 ? i - 2 : 0] + x[i + 2 < n ? i + 2 : n - 1]) + 0.5f * x[i];
}

static void fill(set *st, int kind, int n, int seed)
{
  float *x = gg_array_host(st->x), *y = gg_array_host(st->y);
  for (int i = 0; i < n; i++) {
    x[i] = xin(seed, i);
    y[i] = yin(seed, i); /* every kind overwrites y before reading it */
  }
  x[n] = y[n] = SENTINEL; /* just past the end: must stay */
  *(double *)gg_array_host(st->e) = -1;
  st->kind = kind;
  st->n = n;
  st->seed = seed;
}

/* The frame on the CPU into ref_x / ref_y; *sum: mix's e. */
static void reference(const set *st, double *sum)
{
  int n = st->n;
  for (int i = 0; i < n; i++) ref_x[i] = xin(st->seed, i);
  *sum = -1;
  if (st->kind == H1) {
    for (int k = 0; k < 2; k++) {
      smooth(ref_x, ref_y, n);
      smooth(ref_y, ref_x, n);
    }
  } else if (st->kind == H2) {
    smooth5(ref_x, ref_y, n);
    smooth5(ref_y, ref_x, n);
    smooth5(ref_x, ref_y, n);
  } else {
    smooth(ref_x, ref_y, n);
    for (int i = 0; i < n; i++) ref_y[i] *= 2.0f;
    smooth(ref_y, ref_x, n);
    *sum = 0;
    for (int i = 0; i < n; i++) *sum += ref_x[i];
    smooth(ref_x, ref_y, n);
  }
}

static void verify(const set *st, const char *where)
{
  double sum;
  reference(st, &sum);
  const float *x = gg_array_host(st->x), *y = gg_array_host(st->y);
  int bad = 0;
  for (int i = 0; i < st->n && bad < 3; i++)
    if (x[i] != ref_x[i] || y[i] != ref_y[i]) {
      fprintf(stderr, "%s: frame %s n=%d seed %d: x[%d] = %g, y = %g; want %g, %g\n", where,
              kind_names[st->kind], st->n, st->seed, i, x[i], y[i], ref_x[i], ref_y[i]);
      bad++;
    }
  if (x[st->n] != SENTINEL || y[st->n] != SENTINEL) {
    fprintf(stderr, "%s: frame %s n=%d: wrote past the end\n", where, kind_names[st->kind], st->n);
    bad++;
  }
  double e = *(const double *)gg_array_host(st->e);
  if (st->kind == MIX && e != sum) {
    fprintf(stderr, "%s: frame mix n=%d seed %d: sum %.17g, want %.17g\n", where, st->n, st->seed,
            e, sum);
    bad++;
  }
  if (bad) failures++;
}

static void start(gg_session *s, const int *cmd, set *st)
{
  gg_arg a[4];
  int na = 0;
  a[na++] = gg_arg_array(st->x);
  a[na++] = gg_arg_array(st->y);
  if (st->kind == MIX) a[na++] = gg_arg_array(st->e);
  a[na++] = gg_arg_i64(st->n);
  CHECK_OK(gg_session_start(s, cmd[st->kind], a, na, NULL));
}

struct run_arg {
  const int *cmd;
  int n, *seed;
  const char *where;
};
static void run_start(gg_session *s, int f, int slot, void *arg)
{
  struct run_arg *r = arg;
  fill(&sets[slot], f % NKINDS, r->n, (*r->seed)++);
  start(s, r->cmd, &sets[slot]);
}
static void run_check(int slot, void *arg) { verify(&sets[slot], ((struct run_arg *)arg)->where); }

/* frames frames of size n, the kinds in turn, through every slot */
static void run(gg_session *s, int n, int frames, int *seed, const char *where)
{
  int cmd[NKINDS];
  for (int k = 0; k < NKINDS; k++) CHECK_OK(gg_session_command(s, kind_names[k], &cmd[k]));
  struct run_arg r = {cmd, n, seed, where};
  ring_frames(s, frames, WAIT_NS, run_start, run_check, &r);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  CHECK_OK(gg_module_load(ctx, &gg_module_halo_gpu, &mod));
  for (int i = 0; i < NSETS; i++) {
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, (MAXN + 1) * 4, &sets[i].x));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, (MAXN + 1) * 4, &sets[i].y));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 8, &sets[i].e));
  }
  ref_x = malloc(sizeof(float) * MAXN);
  ref_y = malloc(sizeof(float) * MAXN);
  if (!ref_x || !ref_y) return 1;
  /* kernel, hardware blocks (0: as the module says) */
  static const struct {
    const char *kernel;
    int blocks;
  } runs[] = {{"many", 1},   {"many", 2},  {"many", 3},   {"many", 64},    {"many", 100},
              {"many", 132}, {"many", 0},  {"one", 0},    {"groups", 0},   {"hybrid", 0},
              {"hybrid", 5}};
  static const int sizes[] = {32768, 30001, 1000003};
  const char *q = getenv("GG_FRAMES_QUICK");
  int quick = q && *q && *q != '0', seed = 1;
  const char *lg = getenv("GG_FRAMES_LONG"); /* frames per run at the two small sizes */
  const int many = lg && atoi(lg) > 0 ? atoi(lg) : 600;
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    gg_session_options opt = {0};
    opt.buffering = 4;
    opt.blocks = runs[r].blocks;
    gg_session *s;
    gg_status st = gg_session_open(mod, runs[r].kernel, &opt, &s);
    if (st == GG_ERR_NOT_CORESIDENT) { /* a smaller GPU: 132 blocks do not fit */
      printf("skip: %s with %d blocks: %s\n", runs[r].kernel, runs[r].blocks, gg_error_detail());
      continue;
    }
    CHECK_OK(st);
    char where[128];
    snprintf(where, sizeof where, "%s, %d blocks", runs[r].kernel, gg_session_blocks(s));
    int frames = 0;
    for (int z = 0; z < (quick ? 2 : 3); z++) { /* quick: not the 1M size */
      int count = sizes[z] > 100000 ? 6 : quick ? 30 : many;
      run(s, sizes[z], count, &seed, where);
      frames += count;
    }
    CHECK_OK(gg_session_terminate(s));
    gg_session_free(s);
    printf("%s: %s: %d frames\n", failures ? "FAIL" : "ok  ", where, frames);
    fflush(stdout);
  }
  for (int i = 0; i < NSETS; i++) {
    gg_array_free(sets[i].x);
    gg_array_free(sets[i].y);
    gg_array_free(sets[i].e);
  }
  free(ref_x);
  free(ref_y);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    printf("%d frame(s) wrong\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
