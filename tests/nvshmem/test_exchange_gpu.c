/*
 * test_exchange_gpu - frames on RANKS GPUs with exchange stages, end to
 * end: tests/nvshmem/allreduce.lua, gather.lua and halo.lua through gpugen, libgg's
 * sessions on a team of RANKS processes (one per GPU), and the generated
 * device code.  Built twice (tests/nvshmem/CMakeLists.txt): RANKS 2 with
 * the files as they are, RANKS 4 with their frames' gpus = 2 made 4.
 *
 *   test_exchange_gpu        (needs 2 GPUs and NVSHMEM; skips, 77, otherwise)
 *   test_exchange4_gpu       (needs 4 GPUs)
 *
 * Each rank opens a context on GPU `rank`, joins the team (the unique id
 * travels through a pipe from rank 0), loads the modules and opens a
 * session of each one's persistent kernel "p" with options.team, one
 * after the other.  Then, per frame kind (fsum: f32 sum; imin: i32 min
 * after a reduce; dmax: f64 max over a rank-2 view; bcast: f32 broadcast
 * from GPU 1; gath: allgather of f64 over 13 rows; gbig: allgather of u32
 * over 4099 rows, 13 chunks; a2a: alltoall of f32 over 4004 rows, 12
 * chunks), 10 000 frames, every one with new inputs on
 * every rank and a run-time extent n of 1003, 3003 or 5003 (gbig: 12297
 * and up, what its stages read): each rank computes
 * every rank's inputs from a seed (no data travels between the
 * processes), so it checks its own GPU's exchanged view and the stage
 * after it against a CPU reference over all ranks' inputs, combined in
 * rank order, element by element and bit for bit.  A rank that finds a
 * mismatch keeps running its frames (its peer's exchanges wait for it)
 * and fails at the end.
 *
 * Then the halos (hal1: f32[n], width 1; hal2: u32[5][n] in layout left,
 * width 2, wrap; hal3: f64[n][700], width 3, 5 chunks a side), 10 000
 * frames each: a global array of G rows (G varies by frame and does not
 * divide by RANKS) is cut in parts, rank q's the rows G q / RANKS .. G
 * (q + 1) / RANKS - 1 with w ghost rows each side, so every rank passes
 * its own run-time n; the ghost rows start as a sentinel.  Each rank
 * checks its whole view (its own rows unchanged, each ghost row the
 * neighbour's row of the global array - with wrap modulo G - or the
 * sentinel at an end without a neighbour) and the stencil stage's rows
 * after it, bit for bit.
 *
 * Then the relay (not under a tool): rank 0 alone posts 10 000 fsum
 * frames with new inputs (options.relay), every other rank follows
 * (gg_session_follow) on inputs it wrote once; rank 0 checks every frame,
 * whose e holds every rank's part, and each follower its last frame.
 *
 * Under a tool (compute-sanitizer on one PE):
 *   GG_TEST_UNDER="compute-sanitizer --tool memcheck ..." [GG_TEST_UNDER_RANK=1]
 *   GG_TEST_FRAMES=20 test_exchange_gpu
 * rank GG_TEST_UNDER_RANK (default 1, never rank 0, whose process holds
 * NVSHMEM's bootstrap root) receives the unique id, then runs as the
 * tool's child: the command's words, this program, --rank R --uid HEX.
 * Its code (the tool's --error-exitcode) fails the test.
 *
 * Before that, the refusals: a session of "p" opened without a team, and
 * one of tests/nvshmem/explain3.lua's kernel (frames on 3 GPUs) on this
 * team of RANKS, each GG_ERR_INVALID with a message naming what is wrong.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"
#include "explain3.h"
#include "gather.h"
#include "halo.h"
#include "gg.h"
#include "gg_session.h"
#include "gg_team.h"
#include "team_procs.h"

#ifndef RANKS
#define RANKS 2
#endif
#define KINDS 7 /* allreduce.lua's and gather.lua's */
#define HALOS 3 /* halo.lua's */
/* frames of each kind: 10 000, or $GG_TEST_FRAMES (1..10 000: fewer
 * under compute-sanitizer, where a frame takes milliseconds) */
static int frames_n = 10000;
#define NMAX (H_ROWS * H_COLS + 4000) /* gbig: n_of up to 12297 + 4000 */
#define E_COUNT 1003 /* fsum's e */
#define D_ROWS 7     /* dmax's d: 7 x 5 */
#define D_COLS 5
#define W_COUNT 1001 /* bcast's w, from GPU W_ROOT */
#define W_ROOT 1
#define G_ROWS 13    /* gath's gm: 13 x 7 */
#define G_COLS 7
#define H_ROWS 4099  /* gbig's h: 4099 x 3 */
#define H_COLS 3
#define A_ROWS 4004  /* a2a's a: 4004 x 3, blocks of 2002 rows (1001 on 4 GPUs) */
#define A_COLS 3
#define WAIT_NS 20000000000LL /* a frame; a dead peer ends the wait here */

static int rank;
static team_pipes pipes; /* rank 0 -> the others: the unique id, then "done" */
static int shown; /* mismatches printed: the first few only */
#define SHOW_MAX 5

#define FAIL(...)                                   \
  do {                                              \
    fprintf(stderr, "rank %d: ", rank);             \
    fprintf(stderr, __VA_ARGS__);                   \
    fprintf(stderr, " (%s)\n", gg_error_detail()); \
    return 1;                                       \
  } while (0)

/* ---- every rank's inputs, from a seed ---- */

static uint64_t mix(uint64_t z) { /* splitmix64's finalizer */
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint64_t seed_of(int kind, int frame, int r) {
  return mix(((uint64_t)kind << 48) ^ ((uint64_t)frame << 8) ^ (uint64_t)r);
}
/* a float in [-2, 2) with a full mantissa */
static float f32_at(uint64_t seed, long i) {
  return (float)((double)(mix(seed + (uint64_t)i) >> 11) * 0x1p-53 * 4.0 - 2.0);
}
static double f64_at(uint64_t seed, long i) {
  return (double)(mix(seed + (uint64_t)i) >> 11) * 0x1p-53 * 8.0 - 4.0;
}
static int32_t i32_at(uint64_t seed, long i) {
  return (int32_t)(mix(seed + (uint64_t)i) % 2000000001u) - 1000000000;
}
static uint32_t u32_at(uint64_t seed, long i) { return (uint32_t)mix(seed + (uint64_t)i); }
static long n_of(int kind, int frame) {
  return (kind == 5 ? H_ROWS * H_COLS : kind == 6 ? A_ROWS * A_COLS : 1003) + (frame % 3) * 2000;
}
/* The GPU that owns row r of an allgather's `rows` (gen/exchange_plan.c:
 * GPU q's rows are q rows / N .. (q + 1) rows / N - 1). */
static int owner_of(long r, long rows) { return (int)(((r + 1) * RANKS - 1) / rows); }

/* ---- the CPU references: each rank's partial, combined in rank order ---- */

/* The relay (relay_frames): ranks 1.. run rank 0's frames on the inputs
 * they wrote once, those of frame RELAY_INPUTS; -1 otherwise. */
#define RELAY_INPUTS 7
static int relay_inputs = -1;
static int frame_of_rank(int frame, int r) { return r > 0 && relay_inputs >= 0 ? relay_inputs : frame; }

static int fsum_check(int frame, const float *e, const float *y, long n, const float *x) {
  static float ref[E_COUNT];
  for (int r = 0; r < RANKS; r++)
    for (long i = 0; i < E_COUNT; i++) {
      const float part = f32_at(seed_of(0, frame_of_rank(frame, r), r), i) * 3.0f; /* fill */
      ref[i] = r == 0 ? part : ref[i] + part;
    }
  for (long i = 0; i < E_COUNT; i++)
    if (memcmp(&e[i], &ref[i], sizeof ref[i]) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: fsum frame %d (n %ld): e[%ld] = %.9g, want %.9g\n", rank, frame, n,
              i, e[i], ref[i]);
      return 1;
    }
  for (long i = 0; i < n; i++) {
    const float want = x[i] * ref[i % E_COUNT]; /* use_e */
    if (memcmp(&y[i], &want, sizeof want) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: fsum frame %d (n %ld): y[%ld] = %.9g, want %.9g\n", rank, frame,
              n, i, y[i], want);
      return 1;
    }
  }
  return 0;
}

static int imin_check(int frame, const int32_t *c, const int32_t *yi, long n, const int32_t *xi) {
  int32_t ref = 0;
  for (int r = 0; r < RANKS; r++) {
    int32_t part = INT32_MAX; /* smallest */
    for (long i = 0; i < n; i++) {
      const int32_t v = i32_at(seed_of(1, frame, r), i);
      if (v < part) part = v;
    }
    ref = r == 0 ? part : part < ref ? part : ref;
  }
  if (c[0] != ref) {
    if (shown++ < SHOW_MAX)
      fprintf(stderr, "rank %d: imin frame %d (n %ld): c = %d, want %d\n", rank, frame, n, c[0], ref);
    return 1;
  }
  for (long i = 0; i < n; i++)
    if (yi[i] != xi[i] - ref) { /* use_c */
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: imin frame %d (n %ld): yi[%ld] = %d, want %d\n", rank, frame, n, i,
              yi[i], xi[i] - ref);
      return 1;
    }
  return 0;
}

static int dmax_check(int frame, const double *d, const double *yd, long n, const double *xd) {
  static double ref[D_ROWS * D_COLS];
  for (int r = 0; r < RANKS; r++)
    for (long k = 0; k < D_ROWS * D_COLS; k++) {
      const double v = f64_at(seed_of(2, frame, r), k), part = v * v; /* square: 5 i + j = k */
      ref[k] = r == 0 ? part : part > ref[k] ? part : ref[k];
    }
  for (long k = 0; k < D_ROWS * D_COLS; k++)
    if (memcmp(&d[k], &ref[k], sizeof ref[k]) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: dmax frame %d (n %ld): d[%ld] = %.17g, want %.17g\n", rank, frame,
              n, k, d[k], ref[k]);
      return 1;
    }
  for (long i = 0; i < n; i++) {
    const double want = xd[i] + ref[(i % D_ROWS) * D_COLS + i % D_COLS]; /* use_d */
    if (memcmp(&yd[i], &want, sizeof want) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: dmax frame %d (n %ld): yd[%ld] = %.17g, want %.17g\n", rank,
              frame, n, i, yd[i], want);
      return 1;
    }
  }
  return 0;
}

static int bcast_check(int frame, const float *w, const float *y, long n, const float *x) {
  for (long i = 0; i < W_COUNT; i++) {
    const float want = f32_at(seed_of(3, frame, W_ROOT), i) * 3.0f; /* fill_w on the root */
    if (memcmp(&w[i], &want, sizeof want) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: bcast frame %d (n %ld): w[%ld] = %.9g, want %.9g\n", rank, frame,
              n, i, w[i], want);
      return 1;
    }
  }
  for (long i = 0; i < n; i++) {
    const float want = x[i] * w[i % W_COUNT]; /* use_w, over the checked w */
    if (memcmp(&y[i], &want, sizeof want) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: bcast frame %d (n %ld): y[%ld] = %.9g, want %.9g\n", rank, frame,
              n, i, y[i], want);
      return 1;
    }
  }
  return 0;
}

static int gath_check(int frame, const double *gm, const double *yd, long n, const double *xd) {
  for (long k = 0; k < G_ROWS * G_COLS; k++) {
    const double v = f64_at(seed_of(4, frame, owner_of(k / G_COLS, G_ROWS)), k), want = v * v;
    if (memcmp(&gm[k], &want, sizeof want) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: gath frame %d (n %ld): gm[%ld] = %.17g, want %.17g\n", rank,
              frame, n, k, gm[k], want);
      return 1;
    }
  }
  for (long i = 0; i < n; i++) {
    const double want = xd[i] + gm[(i % G_ROWS) * G_COLS + i % G_COLS]; /* use_g */
    if (memcmp(&yd[i], &want, sizeof want) != 0) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: gath frame %d (n %ld): yd[%ld] = %.17g, want %.17g\n", rank,
              frame, n, i, yd[i], want);
      return 1;
    }
  }
  return 0;
}

static int gbig_check(int frame, const uint32_t *h, const uint32_t *yu, long n) {
  for (long k = 0; k < H_ROWS * H_COLS; k++) {
    const uint32_t want = u32_at(seed_of(5, frame, owner_of(k / H_COLS, H_ROWS)), k) ^ 0x5a5a5a5au;
    if (h[k] != want || yu[k] != want + 1u) { /* mark on the owner, then use_h here */
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: gbig frame %d (n %ld): h[%ld] = %u, yu = %u, want %u, %u\n",
              rank, frame, n, k, h[k], yu[k], want, want + 1u);
      return 1;
    }
  }
  return 0;
}

/* Block q (rows q B .. ) of this rank's a is block `rank` of rank q's. */
static int a2a_check(int frame, const float *a, const float *ya, long n) {
  const long block = A_ROWS / RANKS * A_COLS;
  for (long j = 0; j < A_ROWS * A_COLS; j++) {
    const int q = (int)(j / block);
    const long src = rank * block + (j - q * block); /* its place on rank q */
    const float want = f32_at(seed_of(6, frame, q), src) * 5.0f; /* five, on rank q */
    if (memcmp(&a[j], &want, sizeof want) != 0 || ya[j] != want * 2.0f) {
      if (shown++ < SHOW_MAX)
        fprintf(stderr, "rank %d: a2a frame %d (n %ld): a[%ld] = %.9g, ya = %.9g, want %.9g\n",
              rank, frame, n, j, a[j], ya[j], want);
      return 1;
    }
  }
  return 0;
}

/* ---- halos: the parts of a global array, with ghost rows ---- */

typedef struct halo_kind {
  const char *name;
  int width, wrap, row;   /* row: elements a row */
  unsigned size;          /* bytes an element */
  long rows_max;          /* the most rows of a rank's part (ghost rows too) */
} halo_kind;
static const halo_kind halos[HALOS] = {
  {"hal1", 1, 0, 1, 4, 1001 + 6 * 13 + 2},
  {"hal2", 2, 1, 5, 4, 101 + 4},
  {"hal3", 3, 0, 700, 8, 43 + 6},
};

/* The global array's rows in frame f: not a multiple of 2, 3 or 4 in most frames. */
static long halo_global_rows(int h, int f) {
  return h == 0 ? 1001 + (f % 7) * 13 : h == 1 ? 97 + f % 5 : 41 + f % 3;
}
/* Element j of global row g (bits, zero-extended). */
static uint64_t halo_value(int h, int f, long g, long j) {
  const uint64_t seed = seed_of(KINDS + h, f, 0);
  const long i = g * halos[h].row + j;
  if (h == 0) {
    const float v = f32_at(seed, i);
    uint32_t b;
    memcpy(&b, &v, 4);
    return b;
  }
  if (h == 1) return u32_at(seed, i);
  const double v = f64_at(seed, i);
  uint64_t b;
  memcpy(&b, &v, 8);
  return b;
}
static const uint64_t halo_sentinel[HALOS] = {0x40e00000u /* 7.0f */, 0xdeadbeefu,
                                               0xc01c000000000000ull /* -7.0 */};
/* Element (r, j) of a rank's part: local row r, element j of the row; in
 * layout left (hal2) element (j, r) is at r * row + j as well. */
static uint64_t get(const void *a, unsigned size, long at) {
  if (size == 4) return ((const uint32_t *)a)[at];
  return ((const uint64_t *)a)[at];
}
static void put(void *a, unsigned size, long at, uint64_t v) {
  if (size == 4) ((uint32_t *)a)[at] = (uint32_t)v;
  else ((uint64_t *)a)[at] = v;
}
/* The stencil stage after the halo (halo.lua's edge1, edge2, edge3) on
 * interior row r, element j, of view x. */
static uint64_t halo_stencil(int h, const void *x, long r, long j) {
  const int w = halos[h].width, row = halos[h].row;
  if (h == 0) {
    float a, b, c, y;
    uint32_t u[3] = {(uint32_t)get(x, 4, r - 1), (uint32_t)get(x, 4, r + 1), (uint32_t)get(x, 4, r)};
    memcpy(&a, &u[0], 4), memcpy(&b, &u[1], 4), memcpy(&c, &u[2], 4);
    y = a + b - c;
    uint32_t out;
    memcpy(&out, &y, 4);
    return out;
  }
  if (h == 1) return get(x, 4, (r - w) * row + j) ^ get(x, 4, (r + w) * row + j);
  double a, b, y;
  uint64_t u[2] = {get(x, 8, (r - w) * row + j), get(x, 8, (r + w) * row + j)};
  memcpy(&a, &u[0], 8), memcpy(&b, &u[1], 8);
  y = a + b;
  uint64_t out;
  memcpy(&out, &y, 8);
  return out;
}

/* frames_n frames of halo kind h; the number that did not match, or -1. */
static int halo_frames(gg_session *s, int h, gg_array *const a[2]) {
  const halo_kind *hk = &halos[h];
  const int w = hk->width, row = hk->row;
  const unsigned size = hk->size;
  int cmd, bad = 0;
  if (gg_session_command(s, hk->name, &cmd)) {
    fprintf(stderr, "rank %d: no command %s (%s)\n", rank, hk->name, gg_error_detail());
    return -1;
  }
  void *x = gg_array_host(a[0]), *y = gg_array_host(a[1]);
  const double t0 = team_now_ms();
  for (int f = 0; f < frames_n; f++) {
    const long G = halo_global_rows(h, f), lo = G * rank / RANKS, hi = G * (rank + 1) / RANKS;
    const long n = hi - lo + 2 * w; /* this rank's rows, the ghost rows too */
    for (long r = 0; r < n; r++)
      for (long j = 0; j < row; j++)
        put(x, size, r * row + j,
            r < w || r >= n - w ? halo_sentinel[h] : halo_value(h, f, lo - w + r, j));
    const gg_arg args[3] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_i64(n)};
    gg_status st = gg_session_start(s, cmd, args, 3, NULL);
    if (!st) st = gg_session_wait(s, WAIT_NS);
    if (st) {
      fprintf(stderr, "rank %d: %s frame %d: %s (%s)\n", rank, hk->name, f, gg_strerror(st),
              gg_error_detail());
      return -1;
    }
    int wrong = 0;
    for (long r = 0; r < n && !wrong; r++) {
      long g = lo - w + r; /* the global row local row r stands for */
      const int ghost = r < w || r >= n - w, outside = g < 0 || g >= G;
      if (outside && hk->wrap) g = (g % G + G) % G;
      for (long j = 0; j < row && !wrong; j++) {
        const uint64_t want = outside && !hk->wrap ? halo_sentinel[h] : halo_value(h, f, g, j);
        const uint64_t got = get(x, size, r * row + j);
        const uint64_t ywant = ghost ? 0 : halo_stencil(h, x, r, j);
        const uint64_t ygot = ghost ? 0 : get(y, size, r * row + j);
        if (got != want || ygot != ywant) {
          if (shown++ < SHOW_MAX)
            fprintf(stderr, "rank %d: %s frame %d (G %ld, rows %ld..%ld, n %ld): row %ld (%s) "
                    "element %ld = %#llx, want %#llx; after the stencil %#llx, want %#llx\n",
                    rank, hk->name, f, G, lo, hi - 1, n, r, ghost ? "ghost" : "own", j,
                    (unsigned long long)got, (unsigned long long)want,
                    (unsigned long long)ygot, (unsigned long long)ywant);
          wrong = 1;
        }
      }
    }
    bad += wrong;
  }
  printf("rank %d: %s: %d frames on %d GPUs in %.0f ms (%.1f us a frame), %s\n", rank, hk->name,
         frames_n, RANKS, team_now_ms() - t0, (team_now_ms() - t0) * 1e3 / frames_n,
         bad ? "MISMATCHES" : "every element right");
  return bad;
}

/* ---- one rank ---- */

/* frames_n frames of kind `kind` (0 fsum, 1 imin, 2 dmax, 3 bcast, 4
 * gath, 5 gbig, 6 a2a); the number that did not match, or -1 when a frame could
 * not run. */
static int frames(gg_session *s, int kind, gg_array *const a[3]) {
  static const char *const names[KINDS] = {"fsum", "imin", "dmax", "bcast",
                                           "gath", "gbig", "a2a"};
  int cmd, bad = 0;
  if (gg_session_command(s, names[kind], &cmd)) {
    fprintf(stderr, "rank %d: no command %s (%s)\n", rank, names[kind], gg_error_detail());
    return -1;
  }
  void *in = gg_array_host(a[0]), *mid = gg_array_host(a[1]), *out = gg_array_host(a[2]);
  const double t0 = team_now_ms();
  for (int f = 0; f < frames_n; f++) {
    const long n = n_of(kind, f);
    const uint64_t seed = seed_of(kind, f, rank);
    for (long i = 0; i < n; i++) {
      if (kind == 0 || kind == 3 || kind == 6) ((float *)in)[i] = f32_at(seed, i);
      if (kind == 1) ((int32_t *)in)[i] = i32_at(seed, i);
      if (kind == 2 || kind == 4) ((double *)in)[i] = f64_at(seed, i);
      if (kind == 5) ((uint32_t *)in)[i] = u32_at(seed, i);
    }
    const gg_arg args[4] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_array(a[2]),
                            gg_arg_i64(n)};
    gg_status st = gg_session_start(s, cmd, args, 4, NULL);
    if (!st) st = gg_session_wait(s, WAIT_NS);
    if (st) {
      fprintf(stderr, "rank %d: %s frame %d: %s (%s)\n", rank, names[kind], f, gg_strerror(st),
              gg_error_detail());
      return -1;
    }
    bad += kind == 0   ? fsum_check(f, mid, out, n, in)
           : kind == 1 ? imin_check(f, mid, out, n, in)
           : kind == 2 ? dmax_check(f, mid, out, n, in)
           : kind == 3 ? bcast_check(f, mid, out, n, in)
           : kind == 4 ? gath_check(f, mid, out, n, in)
           : kind == 5 ? gbig_check(f, mid, out, n)
                       : a2a_check(f, mid, out, n);
  }
  printf("rank %d: %s: %d frames on %d GPUs in %.0f ms (%.1f us a frame), %s\n", rank, names[kind],
         frames_n, RANKS, team_now_ms() - t0, (team_now_ms() - t0) * 1e3 / frames_n,
         bad ? "MISMATCHES" : "every element right");
  return bad;
}

/* The relay (docs/multi-gpu.md): rank 0 alone posts fsum frames, each with
 * new inputs and its own n (options.relay); every other rank writes its
 * inputs once (frame RELAY_INPUTS's) and follows (gg_session_follow).  Rank
 * 0 checks e and y every frame: e holds every rank's fill, so each frame
 * proves every GPU ran it.  Each follower checks its own e and y of the
 * last frame after rank 0 says it is done (its last wait saw every GPU
 * finish).  The refusals too: follow on rank 0, start and wait on a
 * follower.  The number that did not match, or -1. */
static int relay_frames(gg_module *mod, gg_team *team, gg_array *const a[3]) {
  gg_session_options so = {.team = team, .relay = rank == 0};
  gg_session *s;
  int cmd = 0, bad = 0, failed = 0;
  if (gg_session_open(mod, "p", &so, &s)) {
    fprintf(stderr, "rank %d: relayed session of p: %s\n", rank, gg_error_detail());
    return -1;
  }
  /* from here on every rank goes through to the pipes, terminate and the
     collective free, whatever fails: a rank that left early would leave
     its kernel on every SM and the others waiting for it */
  if (gg_session_command(s, "fsum", &cmd)) {
    fprintf(stderr, "rank %d: command fsum: %s\n", rank, gg_error_detail());
    failed = 1;
  }
  float *in = gg_array_host(a[0]), *mid = gg_array_host(a[1]), *out = gg_array_host(a[2]);
  relay_inputs = RELAY_INPUTS;
  const double t0 = team_now_ms();
  if (rank == 0 && !failed) {
    const gg_arg none[4] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_array(a[2]),
                            gg_arg_i64(1003)};
    if (gg_session_follow(s, cmd, none, 4) != GG_ERR_INVALID) {
      fprintf(stderr, "rank 0: gg_session_follow on rank 0 was not refused\n");
      failed = 1;
    }
    printf("rank 0: follow on rank 0: %s\n", gg_error_detail());
    for (int f = 0; f < frames_n && !failed; f++) {
      const long n = n_of(0, f);
      for (long i = 0; i < n; i++) in[i] = f32_at(seed_of(0, f, 0), i);
      const gg_arg args[4] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_array(a[2]),
                              gg_arg_i64(n)};
      gg_status st = gg_session_start(s, cmd, args, 4, NULL);
      if (!st) st = gg_session_wait(s, WAIT_NS);
      if (st) {
        fprintf(stderr, "rank 0: relayed fsum frame %d: %s (%s)\n", f, gg_strerror(st),
                gg_error_detail());
        failed = 1;
      } else {
        bad += fsum_check(f, mid, out, n, in);
      }
    }
  } else if (!failed) {
    const long n = n_of(0, RELAY_INPUTS);
    for (long i = 0; i < n; i++) in[i] = f32_at(seed_of(0, RELAY_INPUTS, rank), i);
    const gg_arg args[4] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_array(a[2]),
                            gg_arg_i64(n)};
    failed = gg_session_follow(s, cmd, args, 4) != GG_OK;
    if (failed) fprintf(stderr, "rank %d: follow: %s\n", rank, gg_error_detail());
    if (!failed && (gg_session_start(s, cmd, args, 4, NULL) != GG_ERR_STATE ||
                    gg_session_wait(s, WAIT_NS) != GG_ERR_STATE)) {
      fprintf(stderr, "rank %d: a following session took a frame of its own\n", rank);
      failed = 1;
    }
    if (!failed) printf("rank %d: start while following: %s\n", rank, gg_error_detail());
  }
  char over = (char)failed; /* rank 0's frames are over (or failed) */
  if (team_share(&pipes, rank, &over, 1)) failed = 1;
  if (gg_session_terminate(s) && !failed) {
    fprintf(stderr, "rank %d: terminate the relayed session: %s\n", rank, gg_error_detail());
    failed = 1;
  }
  if (rank > 0 && !failed && !over)
    bad += fsum_check(frames_n - 1, mid, out, n_of(0, RELAY_INPUTS), in);
  printf("rank %d: relayed fsum: %d frames on %d GPUs in %.0f ms (%.1f us a frame), %s\n", rank,
         frames_n, RANKS, team_now_ms() - t0, (team_now_ms() - t0) * 1e3 / frames_n,
         failed || over ? "FAILED" : bad ? "MISMATCHES" : "every element right");
  relay_inputs = -1;
  gg_session_free(s); /* collective */
  return failed || over ? -1 : bad;
}

/* The refusals: without a team, and a kernel of frames on 3 GPUs on this
 * team of RANKS.  Neither allocates anything, so neither is collective. */
static int refusals(gg_context *ctx, gg_module *mod, gg_team *team) {
  gg_session *s = NULL;
  gg_session_options none = {0};
  char want[160];
  snprintf(want, sizeof want, "persistent \"p\" runs frames on %d GPUs: open the session with "
           "options.team", RANKS);
  if (gg_session_open(mod, "p", &none, &s) != GG_ERR_INVALID || !strstr(gg_error_detail(), want))
    FAIL("a session of frames on %d GPUs opened without a team", RANKS);
  printf("rank %d: without a team: %s\n", rank, gg_error_detail());
  gg_module *three;
  if (gg_module_load(ctx, &gg_module_explain3, &three)) FAIL("load explain3");
  gg_session_options with = {.team = team};
  gg_status st = gg_session_open(three, "p", &with, &s);
  snprintf(want, sizeof want, "persistent \"p\" runs frames on 3 GPUs, but options.team has %d "
           "processes: open it on a team of 3", RANKS);
  int ok = st == GG_ERR_INVALID && strstr(gg_error_detail(), want);
  if (ok) printf("rank %d: a team of %d for 3 GPUs: %s\n", rank, RANKS, gg_error_detail());
  gg_module_free(three);
  if (!ok) FAIL("a session of frames on 3 GPUs opened on a team of %d", RANKS);
  return 0;
}

/* given: the unique id (a rank run under a tool), else NULL: through the pipes */
static int run_rank(const gg_team_uid *given) {
  gg_context *ctx;
  gg_context_options o = {.device = rank};
  if (gg_context_open(&ctx, &o)) FAIL("context on GPU %d", rank);
  gg_team_uid uid;
  if (given) uid = *given;
  if (!given && rank == 0 && gg_team_uid_new(&uid)) FAIL("gg_team_uid_new");
  if (!given && team_share(&pipes, rank, &uid, sizeof uid)) FAIL("the id through the pipes");
  gg_team *team;
  /* a tool slows NVSHMEM's start-up: the team waits longer for it */
  const int team_ms = getenv("GG_TEST_UNDER") || given ? 300000 : 60000;
  if (gg_team_open(ctx, rank, RANKS, &uid, team_ms, &team)) FAIL("gg_team_open");
  gg_module *mods[3];
  double t0 = team_now_ms();
  if (gg_module_load(ctx, &gg_module_allreduce, &mods[0]) ||
      gg_module_load(ctx, &gg_module_gather, &mods[1]) ||
      gg_module_load(ctx, &gg_module_halo, &mods[2]))
    FAIL("module load");
  printf("rank %d: modules loaded in %.0f ms\n", rank, team_now_ms() - t0);
  if (refusals(ctx, mods[0], team)) return 1;
  /* inputs (x), exchanged views (e, c, d, w, gm, h, a) and outputs (y) of
     each kind, in mapped memory: the host writes and reads them directly */
  static const size_t in_bytes[KINDS] = {NMAX * 4, NMAX * 4, NMAX * 8, NMAX * 4,
                                         NMAX * 8, NMAX * 4, NMAX * 4},
                      mid_bytes[KINDS] = {E_COUNT * 4, 4, D_ROWS * D_COLS * 8, W_COUNT * 4,
                                          G_ROWS * G_COLS * 8, H_ROWS * H_COLS * 4,
                                          A_ROWS * A_COLS * 4};
  gg_array *arrays[KINDS][3];
  for (int k = 0; k < KINDS; k++)
    if (gg_array_alloc(ctx, GG_SPACE_MAPPED, in_bytes[k], &arrays[k][0]) ||
        gg_array_alloc(ctx, GG_SPACE_MAPPED, mid_bytes[k], &arrays[k][1]) ||
        gg_array_alloc(ctx, GG_SPACE_MAPPED, in_bytes[k], &arrays[k][2]))
      FAIL("arrays");
  /* one session at a time, in the same order on every rank (opening one
     allocates symmetric memory: collective) */
  int bad = 0;
  for (int m = 0; m < 2 && bad >= 0; m++) {
    gg_session *s;
    gg_session_options so = {.team = team};
    if (gg_session_open(mods[m], "p", &so, &s)) FAIL("session of p on the team");
    for (int k = 3 * m; k < (m ? KINDS : 3) && bad >= 0; k++) {
      const int b = frames(s, k, arrays[k]);
      bad = b < 0 ? -1 : bad + b;
    }
    gg_status st = gg_session_terminate(s);
    if (st && bad >= 0) FAIL("terminate: %s", gg_strerror(st));
    gg_session_free(s);
  }
  /* the relay, where every rank has the pipes (not under a tool) */
  if (bad >= 0 && !given && !getenv("GG_TEST_UNDER")) {
    const int b = relay_frames(mods[0], team, arrays[0]);
    bad = b < 0 ? -1 : bad + b;
  }
  /* the halos: a view and the stencil's output each */
  gg_array *harrays[HALOS][2];
  for (int h = 0; h < HALOS; h++)
    for (int j = 0; j < 2; j++)
      if (gg_array_alloc(ctx, GG_SPACE_MAPPED, halos[h].rows_max * halos[h].row * halos[h].size,
                         &harrays[h][j]))
        FAIL("halo arrays");
  if (bad >= 0) {
    gg_session *s;
    gg_session_options so = {.team = team};
    if (gg_session_open(mods[2], "p", &so, &s)) FAIL("session of halo's p on the team");
    for (int h = 0; h < HALOS && bad >= 0; h++) {
      const int b = halo_frames(s, h, harrays[h]);
      bad = b < 0 ? -1 : bad + b;
    }
    gg_status st = gg_session_terminate(s);
    if (st && bad >= 0) FAIL("terminate: %s", gg_strerror(st));
    gg_session_free(s);
  }
  for (int h = 0; h < HALOS; h++)
    for (int j = 0; j < 2; j++) gg_array_free(harrays[h][j]);
  for (int k = 0; k < KINDS; k++)
    for (int j = 0; j < 3; j++) gg_array_free(arrays[k][j]);
  for (int m = 0; m < 3; m++) gg_module_free(mods[m]);
  gg_team_free(team);
  gg_context_free(ctx);
  return bad != 0;
}

/* ---- the processes (team_procs.h) ---- */

/* The rank run under GG_TEST_UNDER: its id from the pipe, then the tool
 * runs this program as that rank alone. */
static int under_rank(void) {
  const char *e = getenv("GG_TEST_UNDER_RANK");
  const int r = e ? atoi(e) : 1;
  if (!getenv("GG_TEST_UNDER"))
    return -1;
  if (r < 1 || r >= RANKS) { /* rank 0 runs the test itself: a tool there would check nothing */
    fprintf(stderr, "GG_TEST_UNDER_RANK=%s: give a rank 1..%d\n", e ? e : "", RANKS - 1);
    exit(2);
  }
  return r;
}
static int exec_under(void) {
  gg_team_uid uid;
  if (team_share(&pipes, rank, &uid, sizeof uid)) FAIL("the id through the pipes");
  char hex[2 * sizeof uid + 1], rk[16], self[4096];
  for (size_t i = 0; i < sizeof uid; i++) snprintf(hex + 2 * i, 3, "%02x", ((unsigned char *)&uid)[i]);
  snprintf(rk, sizeof rk, "%d", rank);
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) FAIL("/proc/self/exe");
  self[len] = 0;
  static char words[1024];
  snprintf(words, sizeof words, "%s", getenv("GG_TEST_UNDER"));
  char *argv[64];
  int n = 0;
  for (char *w = strtok(words, " "); w && n < 58; w = strtok(NULL, " ")) argv[n++] = w;
  argv[n++] = self, argv[n++] = "--rank", argv[n++] = rk, argv[n++] = "--uid", argv[n++] = hex;
  argv[n] = NULL;
  printf("rank %d: under %s\n", rank, getenv("GG_TEST_UNDER"));
  fflush(stdout);
  execvp(argv[0], argv);
  FAIL("exec %s", argv[0]);
}

static int rank_main(void *arg) {
  rank = (int)(intptr_t)arg;
  return rank == under_rank() ? exec_under() : run_rank(NULL);
}

/* --rank R --uid HEX: one rank alone, as exec_under starts it. */
static int one_rank(char **argv) {
  gg_team_uid uid;
  rank = atoi(argv[2]);
  if (rank < 1 || rank >= RANKS || strlen(argv[4]) != 2 * sizeof uid) {
    fprintf(stderr, "usage: test_exchange_gpu [--rank 1..%d --uid HEX]\n", RANKS - 1);
    return 2;
  }
  for (size_t i = 0; i < sizeof uid; i++) {
    unsigned b;
    if (sscanf(argv[4] + 2 * i, "%2x", &b) != 1) return 2;
    ((unsigned char *)&uid)[i] = (unsigned char)b;
  }
  return run_rank(&uid);
}

int main(int argc, char **argv) {
  team_multicast_off();
  const char *env = getenv("GG_TEST_FRAMES");
  if (env) {
    char *end;
    const long v = strtol(env, &end, 10);
    if (*end || v < 1 || v > 10000) {
      fprintf(stderr, "GG_TEST_FRAMES=%s: give a count of frames, 1..10000\n", env);
      return 2;
    }
    frames_n = (int)v;
  }
  if (argc == 5 && strcmp(argv[1], "--rank") == 0 && strcmp(argv[3], "--uid") == 0)
    return one_rank(argv);
  if (argc != 1) {
    fprintf(stderr, "usage: test_exchange_gpu [--rank 1..%d --uid HEX]\n", RANKS - 1);
    return 2;
  }
  char why[1600];
  if (!gg_nvshmem_available(why, sizeof why)) {
    printf("skip: %s\n", why);
    return 77;
  }
  int code = team_probe(RANKS);
  if (code) return code;
  pid_t pids[RANKS];
  int codes[RANKS], bad = 0;
  if (team_pipes_open(&pipes, RANKS)) return 1;
  for (int r = 0; r < RANKS; r++) pids[r] = team_spawn(rank_main, (void *)(intptr_t)r);
  team_reap(pids, RANKS, 500, codes);
  for (int r = 0; r < RANKS; r++)
    if (codes[r]) {
      fprintf(stderr, "rank %d ended with %d%s\n", r, codes[r], codes[r] < 0 ? " (killed: hung)" : "");
      bad = 1;
    }
  if (bad) return 1;
  printf("test_exchange_gpu: ok (%d ranks, %d frames of each of %d kinds)\n", RANKS, frames_n,
         KINDS + HALOS);
  return 0;
}
