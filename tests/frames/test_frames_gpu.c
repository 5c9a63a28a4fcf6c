/*
 * test_frames_gpu.c - frames (tests/frames/frames_gpu.lua) on the GPU:
 * chains of 1, 2, 4 and 8 dependent stages (no barrier: each stage reads
 * y where its own thread wrote it), 2 and 8 independent stages, a mix
 * with two reductions, a step fused into the shared-atomic sum after it
 * (the sum's fold runs the step's body: fz), and a chain whose every
 * stage needs its barrier (a neighbour read, another range, a
 * reduction), on one_block, many_blocks, hybrid and thread_groups
 * persistent kernels with 1, 2 and 4 frame slots, at sizes that are not
 * powers of two and at powers of two; then thousands of frames with
 * varying inputs through a ring on each of them.  Every frame is
 * checked against a CPU reference (exact: every value is a short binary
 * fraction).  Frames are
 * started with gg_session_start, the generated typed starter and
 * gg_session_start_packed.  Then the peer the frames are measured
 * against: chains of classic launches of the same step with programmatic
 * dependent launch (gg_stream_set_pdl), launched directly and replayed
 * from a graph, checked the same way (a kernel that did not wait for its
 * predecessor would read a stale y).  Every wait has a timeout, so a hang
 * fails.
 * Label gpu; exit 77 without one.  GG_FRAMES_QUICK=1 runs two sizes, two
 * frames each and a short ring: for compute-sanitizer (racecheck runs
 * the full test for more than 150 s).  GG_FRAMES_LONG=N runs about N
 * frames through the ring of each layout instead of 4000 (1000000: every
 * kind, each frame checked, about a minute a layout).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames_gpu.h"
#include "ring.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
#define MAXN 65536
#define NSETS 4
#define NY 8

static gg_context *ctx;
static gg_module *mod;
static int failures;


/* one buffer set per frame slot */
typedef struct set {
  gg_array *x, *y[NY], *e1, *e2;
  int seed, n, frame_kind;
} set;
static set sets[NSETS];

typedef struct frame_kind {
  const char *name;
  int stages;      /* dependent steps on y (d*), or independent ys (i*) */
  int independent;
  int mix;         /* m4 */
  int needs;       /* nb: y, y2 = y[1], w = y[2] (first m = n / 3 + 1), e1 */
  int fused;       /* fz: one step, then e1 = sum y (the step runs inside the sum's fold) */
} frame_kind;
static const frame_kind kinds[] = {
  {"d1", 1, 0, 0, 0, 0}, {"d2", 2, 0, 0, 0, 0}, {"d4", 4, 0, 0, 0, 0}, {"d8", 8, 0, 0, 0, 0},
  {"i2", 2, 1, 0, 0, 0}, {"i8", 8, 1, 0, 0, 0}, {"m4", 2, 0, 1, 0, 0}, {"nb", 1, 0, 0, 1, 0},
  {"fz", 1, 0, 0, 0, 1},
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static float xin(int seed, int i) { return (float)((i * 37 + seed * 11) % 61 - 30); }
static float yin(int seed, int i, int k) { return (float)((i * 13 + seed * 7 + k * 5) % 41 - 20); }

static void fill(set *st, int kind, int n, int seed)
{
  float *x = gg_array_host(st->x);
  for (int i = 0; i < n; i++) x[i] = xin(seed, i);
  for (int k = 0; k < NY; k++) {
    float *y = gg_array_host(st->y[k]);
    for (int i = 0; i < n; i++) y[i] = yin(seed, i, k);
    y[n] = 12345.0f; /* just past the end: must stay */
  }
  *(double *)gg_array_host(st->e1) = -1;
  *(double *)gg_array_host(st->e2) = -1;
  st->seed = seed;
  st->n = n;
  st->frame_kind = kind;
}

static int m_of(int n) { return n / 3 + 1; }

/* Frame nb on the CPU: y = 0.5 y + x; y2(i) = y(i + 1) (the last: y(i));
 * y = 0.5 y + y2; y(i) += w(i) for i < m; e1 = sum y.  A missing barrier
 * reads a neighbour's y before or after its update. */
static int verify_nb(const set *st, const char *where)
{
  int n = st->n, m = m_of(n), bad = 0;
  const float *y = gg_array_host(st->y[0]), *y2 = gg_array_host(st->y[1]);
  float *a = malloc(sizeof(float) * (size_t)n), *a2 = malloc(sizeof(float) * (size_t)n);
  if (!a || !a2) exit(1);
  for (int i = 0; i < n; i++) a[i] = 0.5f * yin(st->seed, i, 0) + xin(st->seed, i);
  for (int i = 0; i < n; i++) a2[i] = a[i + 1 < n ? i + 1 : i];
  double sum = 0;
  for (int i = 0; i < n; i++) {
    a[i] = 0.5f * a[i] + a2[i];
    if (i < m) a[i] += yin(st->seed, i, 2);
    sum += a[i];
  }
  for (int i = 0; i < n && bad < 3; i++)
    if (y[i] != a[i] || y2[i] != a2[i]) {
      fprintf(stderr, "%s: frame nb n=%d seed %d: y[%d] = %g, y2 = %g; want %g, %g\n", where, n,
              st->seed, i, y[i], y2[i], a[i], a2[i]);
      bad++;
    }
  double e1 = *(const double *)gg_array_host(st->e1);
  if (e1 != sum) {
    fprintf(stderr, "%s: frame nb n=%d seed %d: sum %g, want %g\n", where, n, st->seed, e1, sum);
    bad++;
  }
  for (int k = 0; k < 2; k++)
    if (((const float *)gg_array_host(st->y[k]))[n] != 12345.0f) {
      fprintf(stderr, "%s: frame nb n=%d: wrote past the end of y%d\n", where, n, k + 1);
      bad++;
    }
  free(a);
  free(a2);
  return bad;
}

static void verify(const set *st, const char *where)
{
  const frame_kind *fk = &kinds[st->frame_kind];
  if (fk->needs) {
    if (verify_nb(st, where)) failures++;
    return;
  }
  const float *x = gg_array_host(st->x);
  double sx = 0, sy = 0;
  int bad = 0;
  for (int k = 0; k < (fk->independent ? fk->stages : 1); k++) {
    const float *y = gg_array_host(st->y[k]);
    for (int i = 0; i < st->n && bad < 3; i++) {
      float want = yin(st->seed, i, k);
      for (int s = 0; s < (fk->independent ? 1 : fk->stages); s++) want = 0.5f * want + xin(st->seed, i);
      if (k == 0) {
        sx += x[i];
        sy += want;
      }
      if (y[i] != want) {
        fprintf(stderr, "%s: frame %s n=%d seed %d: y%d[%d] = %g, want %g\n", where, fk->name,
                st->n, st->seed, k + 1, i, y[i], want);
        bad++;
      }
    }
    if (y[st->n] != 12345.0f) {
      fprintf(stderr, "%s: frame %s n=%d: wrote past the end of y%d\n", where, fk->name, st->n, k + 1);
      bad++;
    }
  }
  if (fk->mix) {
    double e1 = *(const double *)gg_array_host(st->e1), e2 = *(const double *)gg_array_host(st->e2);
    if (e1 != sx || e2 != sy) {
      fprintf(stderr, "%s: frame m4 n=%d seed %d: sums %g %g, want %g %g\n", where, st->n, st->seed,
              e1, e2, sx, sy);
      bad++;
    }
  }
  if (fk->fused && *(const double *)gg_array_host(st->e1) != sy) {
    fprintf(stderr, "%s: frame fz n=%d seed %d: sum %g, want %g\n", where, st->n, st->seed,
            *(const double *)gg_array_host(st->e1), sy);
    bad++;
  }
  if (bad) failures++;
}

typedef enum { VIA_START, VIA_TYPED, VIA_PACKED } via;

static void start(gg_session *s, int cmd, set *st, via how)
{
  const frame_kind *fk = &kinds[st->frame_kind];
  gg_arg a[12];
  int na = 0;
  a[na++] = gg_arg_array(st->x);
  if (fk->needs)
    for (int k = 0; k < 3; k++) a[na++] = gg_arg_array(st->y[k]);
  else if (fk->independent)
    for (int k = 0; k < fk->stages; k++) a[na++] = gg_arg_array(st->y[k]);
  else
    a[na++] = gg_arg_array(st->y[0]);
  if (fk->mix) {
    a[na++] = gg_arg_array(st->e1);
    a[na++] = gg_arg_array(st->e2);
  }
  if (fk->needs || fk->fused) a[na++] = gg_arg_array(st->e1);
  a[na++] = gg_arg_i64(st->n);
  if (fk->needs) a[na++] = gg_arg_i64(m_of(st->n));
  if (how == VIA_TYPED && strcmp(fk->name, "d1") == 0) {
    CHECK_OK(gg_frames_gpu_start_d1(s, cmd, NULL, st->x, st->y[0], st->n));
  } else if (how == VIA_PACKED) {
    gg_kernel *k;
    unsigned char buf[256];
    CHECK_OK(gg_kernel_get(mod, fk->name, &k));
    const gg_kernel_desc *kd = gg_kernel_describe(k);
    CHECK_OK(gg_pack_args(kd, a, na, buf, sizeof buf));
    CHECK_OK(gg_session_start_packed(s, cmd, buf, kd->args_size, NULL));
  } else {
    CHECK_OK(gg_session_start(s, cmd, a, na, NULL));
  }
}

struct run_arg {
  int kind, cmd, n, seed0;
  via how;
  const char *where;
};
static void run_start(gg_session *s, int f, int slot, void *arg)
{
  struct run_arg *r = arg;
  fill(&sets[slot], r->kind, r->n, r->seed0 + f);
  start(s, r->cmd, &sets[slot], r->how);
}
static void run_check(int slot, void *arg) { verify(&sets[slot], ((struct run_arg *)arg)->where); }

/* frames of one kind and size, up to nslots in flight, each on the
 * buffer set of its slot */
static void run(gg_session *s, int kind, int n, int frames, int seed0, via how, const char *where)
{
  struct run_arg r = {kind, 0, n, seed0, how, where};
  CHECK_OK(gg_session_command(s, kinds[kind].name, &r.cmd));
  ring_frames(s, frames, WAIT_NS, run_start, run_check, &r);
}

/* S classic launches of step on a PDL stream, directly and as a graph,
 * each checked against the CPU; skipped (said so) where PDL is not
 * supported. */
static void pdl_chains(void)
{
  gg_kernel *step;
  CHECK_OK(gg_kernel_get(mod, "step", &step));
  if (!(gg_kernel_describe(step)->features & GG_FEAT_PDL)) {
    fprintf(stderr, "step: the generator did not mark it GG_FEAT_PDL\n");
    failures++;
    return;
  }
  gg_stream *s;
  CHECK_OK(gg_stream_open(ctx, &s));
  if (gg_stream_set_pdl(s, 1) != GG_OK) {
    printf("skip: PDL chains: %s\n", gg_error_detail());
    gg_stream_free(s);
    return;
  }
  static const int sizes[] = {1000, 32771, 65536};
  set *st = &sets[0];
  int seed = 7;
  for (int z = 0; z < 3; z++)
    for (int stages = 2; stages <= 8; stages *= 2)
      for (int graph = 0; graph < 2; graph++)
        for (int rep = 0; rep < 20; rep++, seed++) {
          fill(st, stages == 2 ? 1 : stages == 4 ? 2 : 3, sizes[z], seed);
          gg_arg a[3] = {gg_arg_array(st->x), gg_arg_array(st->y[0]), gg_arg_i64(sizes[z])};
          gg_graph *g = NULL;
          if (graph) CHECK_OK(gg_graph_capture_begin(s, &g));
          for (int k = 0; k < stages; k++) CHECK_OK(gg_launch(step, s, a, 3));
          if (graph) {
            CHECK_OK(gg_graph_capture_end(g));
            CHECK_OK(gg_graph_launch(g, s));
          }
          CHECK_OK(gg_stream_sync(s));
          gg_graph_free(g);
          verify(st, graph ? "graph+PDL chain" : "PDL chain");
        }
  printf("%s: PDL chains of 2, 4, 8 launches, direct and as graphs\n", failures ? "FAIL" : "ok  ");
  gg_stream_free(s);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  CHECK_OK(gg_module_load(ctx, &gg_module_frames_gpu, &mod));
  for (int i = 0; i < NSETS; i++) {
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, (MAXN + 1) * 4, &sets[i].x));
    for (int k = 0; k < NY; k++) CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, (MAXN + 1) * 4, &sets[i].y[k]));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 8, &sets[i].e1));
    CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 8, &sets[i].e2));
  }
  static const char *const kernels[] = {"p_one_block", "p_many_blocks", "p_hybrid", "p_groups"};
  const int nkernels = (int)(sizeof kernels / sizeof kernels[0]);
  static const int sizes[] = {1000, 4097, 32771, 1024, 65536};
  static const int slots[] = {1, 2, 4};
  const char *q = getenv("GG_FRAMES_QUICK");
  int quick = q && *q && *q != '0', nsizes = quick ? 2 : 5, rounds = quick ? 16 : 500;
  const char *lg = getenv("GG_FRAMES_LONG"); /* the ring's frames, e.g. 1000000 */
  if (lg && atoi(lg) > 0) rounds = (atoi(lg) + 7) / 8;
  int seed = 1;
  for (int p = 0; p < nkernels; p++)
    for (int b = 0; b < 3; b++) {
      gg_session_options opt = {0};
      opt.buffering = slots[b];
      gg_session *s;
      CHECK_OK(gg_session_open(mod, kernels[p], &opt, &s));
      char where[128];
      snprintf(where, sizeof where, "%s, %d slot(s), %d blocks", kernels[p], slots[b],
               gg_session_blocks(s));
      for (int k = 0; k < NKINDS; k++)
        for (int z = 0; z < nsizes; z++) {
          via how = (via)((k + z) % 3);
          run(s, k, sizes[z], quick ? 2 : sizes[z] > 40000 ? 6 : 12, seed, how, where);
          seed += 100;
        }
      CHECK_OK(gg_session_terminate(s));
      gg_session_free(s);
      printf("%s: %s\n", failures ? "FAIL" : "ok  ", where);
      fflush(stdout);
    }
  /* thousands of frames with varying inputs through a ring of 4, on
     every layout (GG_FRAMES_LONG: that many on each) */
  for (int p = 0; p < nkernels; p++) {
    gg_session_options opt = {0};
    opt.buffering = 4;
    gg_session *s;
    CHECK_OK(gg_session_open(mod, kernels[p], &opt, &s));
    char where[128];
    snprintf(where, sizeof where, "ring of 4, %s", kernels[p]);
    for (int r = 0; r < rounds; r++) {
      int kind = r % NKINDS;
      run(s, kind, r % 2 ? 4097 : 1000, 8, seed, (via)(r % 3), where);
      seed += 8;
    }
    printf("%s: %d frames through a ring of 4 on %s, %d blocks\n", failures ? "FAIL" : "ok  ",
           rounds * 8, kernels[p], gg_session_blocks(s));
    fflush(stdout);
    CHECK_OK(gg_session_terminate(s));
    gg_session_free(s);
  }
  pdl_chains();
  for (int i = 0; i < NSETS; i++) {
    gg_array_free(sets[i].x);
    for (int k = 0; k < NY; k++) gg_array_free(sets[i].y[k]);
    gg_array_free(sets[i].e1);
    gg_array_free(sets[i].e2);
  }
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    printf("%d frame(s) wrong\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
