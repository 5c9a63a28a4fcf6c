/*
 * frame_bench.c - S = 1, 2, 4, 8 dependent stages over 32K and 1M floats
 * (bench/frame_bench.lua through gpugen at build time), two kinds of
 * chain: "step" (y = 0.5 y + x: each stage reads y only where its own
 * thread wrote it, so the frame has no barrier) and "smooth" (a 3-point
 * stencil ping-ponging between x and y: a grid barrier before every
 * stage but the first), and "smooth_h", the same stencil declaring
 * halo = 1 (the second stage waits only for its two neighbour blocks, the
 * later ones only for their own block, the neighbours' edge elements
 * coming in tagged words where the range takes at most two grid-stride
 * steps, else they wait for neighbours too; its graph rows launch the
 * halo kernel, whose view checks every index).
 * Side by side in one process, the peers of one kind, size and S:
 *   launch + sync   S gg_launch of the kernel, then gg_stream_sync
 *   CUDA graph      the same S launches captured once (gg_graph_*), replayed + sync
 *   graph+PDL       the same, captured from a stream with gg_stream_set_pdl:
 *                   each kernel may start while the one before finishes
 *                   (programmatic dependent launch, sm_90+)
 *   plain graph+PDL (smooth_h only) the plain smooth kernel's graph+PDL:
 *                   the stencil without the halo view's index checks
 *   gpugen frame    one frame of S stages in a persistent kernel: one handshake
 *                   (gg_session_start_packed + gg_session_wait), on 16, 132
 *                   and 264 blocks of 256 threads and, at 32K, one block of 1024
 *   gpugen auto     the frame on gg_session_tune's choice among those kernels
 *                   and its block counts (tuned with the chain's arguments
 *                   before the rounds; a record of an earlier run is read)
 *
 * In turn: a row's iterations are split into rounds (5 by default), and
 * every round times every peer once, so a drift of the machine (clocks,
 * another tenant) reaches all peers alike instead of the rows timed
 * last.  Rows pool the rounds' samples; the summary also gives the range
 * of the per-round p50 ratios, which is this run's noise.
 *
 * Inputs are random (x, y in [-1, 1)), restored before every round.  After
 * the rows of each kind, size and S, every graph and every frame layout
 * runs once more from the same inputs and both arrays are compared with a
 * CPU reference of the S stages: a wrong element stops the bench (exit 1,
 * "WRONG: ..."), after that shape's rows and before any summary.
 *
 * Prints mean, p50, p99, p99.9, p99.99, max (us) and the p50 ratios graph /
 * this and graph+PDL / this; then per kind, size and S the best frame
 * against both graphs, auto against the best hand-picked layout (goal
 * >= 0.95x), and the cost of one more dependent stage: (p50 at
 * S=8 - p50 at S=1) / 7.
 * Usage: frame_bench [iterations per row, default 3000] [rounds, default 5]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_bench.h"
#include "gg.h"
#include "gg_session.h"
#include "stats.h"
#include "../tests/gg_check.h" /* CHECK_OK: the tests' assertion on a libgg call */

#define WAIT_NS 2000000000ll
#define NKIND 3
#define NSIZE 2
#define NS 4
#define NLAYOUT 5 /* 16, 132, 264 blocks; one block; auto (gg_session_tune's choice) */
#define L_ONE 3
#define L_AUTO 4
#define MAXROUNDS 32

static gg_context *ctx;
static int iters = 3000, rounds = 5;

static const char *const kind_kernel[NKIND] = {"step", "smooth", "smooth_h"};
static const char *const kind_frame[NKIND] = {"s", "m", "mh"};
static const char *const kind_what[NKIND] = {"step (same-thread: no barrier)",
                                             "smooth (stencil: a barrier per stage)",
                                             "smooth halo 1 (halo exchange)"};
static const int S[NS] = {1, 2, 4, 8};
static const long long N[NSIZE] = {32768, 1 << 20};
static const int blocks[3] = {16, 132, 264};

/* The peers of one row set; P_FRAME + l is frame layout l. */
enum { P_LAUNCH, P_GRAPH, P_PDL, P_PLAIN_PDL, P_FRAME, NPEER = P_FRAME + NLAYOUT };

/* Pooled p50 (0: not run) and each round's p50, per kind, size, S and peer. */
static double p50s[NKIND][NSIZE][NS][NPEER];
static double round_p50[NKIND][NSIZE][NS][NPEER][MAXROUNDS];

/* One kind, size and S: what every peer runs, and the inputs. */
typedef struct chain {
  int kind, z, si, s;
  gg_kernel *kern, *plain;
  gg_stream *stream;
  gg_graph *graph[P_FRAME]; /* indexed by P_GRAPH, P_PDL, P_PLAIN_PDL; NULL: not run */
  gg_module *mod;
  gg_array *x, *y;
  const float *hx, *hy; /* the inputs */
  gg_arg xy[3], yx[3];
  gg_kernel *fk;
  const gg_kernel_desc *kd;
  unsigned char packed[128];
  gg_session *se; /* the frame layout's session while it runs */
  int cmd;
  gg_tuned tuned; /* the auto row's choice */
} chain;

static double p50_of(const bench_stats *st)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  return r.p50;
}

static void row(const char *what, int s, const bench_stats *st, double graph, double pdl)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  char label[96];
  snprintf(label, sizeof label, "S=%d %s", s, what);
  printf("%-44s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f   %5.2fx  %5.2fx\n", label, r.mean, r.p50,
         r.p99, r.p999, r.p9999, r.max, graph > 0 ? graph / r.p50 : 1.0,
         pdl > 0 ? pdl / r.p50 : 0.0);
  fflush(stdout);
}

/* Stage k's arguments: step always (x, y); smooth (with or without its
 * halo) ping-pongs. */
static const gg_arg *stage_args(const chain *c, int k)
{
  return c->kind > 0 && k % 2 ? c->yx : c->xy;
}

static gg_graph *capture(const chain *c, gg_kernel *kern, gg_stream *from)
{
  gg_graph *g;
  CHECK_OK(gg_graph_capture_begin(from, &g));
  for (int k = 0; k < c->s; k++) CHECK_OK(gg_launch(kern, from, stage_args(c, k), 3));
  CHECK_OK(gg_graph_capture_end(g));
  return g;
}

static void restore(const chain *c)
{
  long long n = N[c->z];
  CHECK_OK(gg_copy_from_host(c->x, 0, c->hx, (size_t)n * 4, NULL));
  CHECK_OK(gg_copy_from_host(c->y, 0, c->hy, (size_t)n * 4, NULL));
}

/* Frame layout l's session: 0 when it runs, -1 (said once) when it does not fit. */
static int frame_open(chain *c, int l, int say)
{
  gg_session_options opt = {0};
  opt.buffering = 1;
  if (l < 3) opt.blocks = blocks[l];
  if (l == L_AUTO) opt.blocks = c->tuned.blocks;
  const char *name = l < 3 ? "whole" : l == L_ONE ? "one" : c->tuned.kernel;
  if (gg_session_open(c->mod, name, &opt, &c->se)) {
    if (say)
      printf("S=%d frame %s: not run: %s\n", c->s, name, gg_error_detail());
    return -1;
  }
  CHECK_OK(gg_session_command(c->se, gg_kernel_describe(c->fk)->name, &c->cmd));
  return 0;
}

/* The auto row: gg_session_tune over both persistent kernels (one block;
 * the whole GPU at its candidate counts) with this chain's arguments, the
 * record read when an earlier run left one. */
static void tune_chain(chain *c)
{
  restore(c);
  CHECK_OK(gg_session_tune(c->mod, gg_kernel_describe(c->fk)->name, c->xy, 3, NULL, &c->tuned));
  printf("S=%d auto: \"%s\" %d blocks (%s, %.0f ms; %s)\n", c->s, c->tuned.kernel,
         c->tuned.blocks, c->tuned.source == GG_TUNE_FROM_RECORD ? "record" : "measured",
         c->tuned.tune_ms, c->tuned.note);
}

static void frame_close(chain *c)
{
  CHECK_OK(gg_session_terminate(c->se));
  gg_session_free(c->se);
  c->se = NULL;
}

/* One iteration of peer p, waited for. */
static void run_peer(chain *c, int p)
{
  if (p == P_LAUNCH) {
    for (int k = 0; k < c->s; k++) gg_launch(c->kern, c->stream, stage_args(c, k), 3);
    CHECK_OK(gg_stream_sync(c->stream));
  } else if (p < P_FRAME) {
    gg_graph_launch(c->graph[p], c->stream);
    CHECK_OK(gg_stream_sync(c->stream));
  } else {
    gg_session_start_packed(c->se, c->cmd, c->packed, c->kd->args_size, NULL);
    if (gg_session_wait(c->se, WAIT_NS)) {
      fprintf(stderr, "frame %s: %s\n", c->kd->name, gg_error_detail());
      exit(1);
    }
  }
}

/* n timed iterations of peer p into st, after n / 10 + 1 untimed ones. */
static void time_peer(chain *c, int p, int n, bench_stats *st)
{
  bench_stats_reset(st);
  for (int i = 0; i < n + n / 10 + 1; i++) {
    double t0 = bench_now_us();
    run_peer(c, p);
    if (i > n / 10) bench_stats_add(st, bench_now_us() - t0);
  }
}

/* The CPU's S stages from the inputs, in double: rx, ry as x, y end. */
static void reference(const chain *c, double *rx, double *ry)
{
  long long n = N[c->z];
  for (long long i = 0; i < n; i++) rx[i] = c->hx[i], ry[i] = c->hy[i];
  for (int k = 0; k < c->s; k++) {
    if (c->kind == 0) {
      for (long long i = 0; i < n; i++) ry[i] = 0.5 * ry[i] + rx[i];
      continue;
    }
    const double *in = k % 2 ? ry : rx;
    double *out = k % 2 ? rx : ry;
    for (long long i = 0; i < n; i++)
      out[i] = 0.25 * in[i > 0 ? i - 1 : i] + 0.5 * in[i] + 0.25 * in[i + 1 < n ? i + 1 : i];
  }
}

/* Both device arrays against the reference; exits on the first wrong element. */
static void compare(const chain *c, const char *who, const double *rx, const double *ry,
                    float *got)
{
  long long n = N[c->z];
  for (int a = 0; a < 2; a++) {
    CHECK_OK(gg_copy_to_host(got, a ? c->y : c->x, 0, (size_t)n * 4, NULL));
    const double *r = a ? ry : rx;
    for (long long i = 0; i < n; i++)
      if (!(fabs(got[i] - r[i]) <= 1e-5 * (1 + fabs(r[i])))) {
        fprintf(stderr, "WRONG: %s%d %s, n = %lld: %s[%lld] = %.8g, the CPU gives %.8g\n",
                kind_frame[c->kind], c->s, who, n, a ? "y" : "x", i, got[i], r[i]);
        exit(1);
      }
  }
}

/* Every graph and every frame layout once from the inputs, checked. */
static void check(chain *c)
{
  long long n = N[c->z];
  double *rx = malloc((size_t)n * sizeof *rx), *ry = malloc((size_t)n * sizeof *ry);
  float *got = malloc((size_t)n * sizeof *got);
  if (!rx || !ry || !got) exit(1);
  reference(c, rx, ry);
  static const char *const graph_name[P_FRAME] = {"launches", "graph", "graph+PDL",
                                                 "plain graph+PDL"};
  for (int p = P_LAUNCH; p < P_FRAME; p++) {
    if (p != P_LAUNCH && !c->graph[p]) continue;
    restore(c);
    run_peer(c, p);
    compare(c, graph_name[p], rx, ry, got);
  }
  for (int l = 0; l < NLAYOUT; l++) {
    if (!p50s[c->kind][c->z][c->si][P_FRAME + l] || frame_open(c, l, 0)) continue;
    restore(c);
    run_peer(c, P_FRAME + l);
    frame_close(c);
    char who[32];
    snprintf(who, sizeof who, "frame layout %d", l);
    compare(c, who, rx, ry, got);
  }
  free(rx);
  free(ry);
  free(got);
}

/* The rows of one kind, size and S: rounds of every peer in turn, pooled. */
static void time_chain(chain *c)
{
  int per = iters / rounds;
  bench_stats pool[NPEER], one;
  bench_stats_init(&one, (size_t)per);
  int runs[NPEER] = {0};
  for (int p = 0; p < NPEER; p++) {
    bench_stats_init(&pool[p], (size_t)iters);
    runs[p] = p == P_LAUNCH || (p < P_FRAME && c->graph[p]) ||
              (p >= P_FRAME && !(p == P_FRAME + L_ONE && c->z == 1)); /* 1M on one block: no fit */
  }
  double *rp = round_p50[c->kind][c->z][c->si][0];
  for (int r = 0; r < rounds; r++) {
    restore(c);
    for (int p = 0; p < NPEER; p++) {
      if (!runs[p]) continue;
      if (p >= P_FRAME && frame_open(c, p - P_FRAME, r == 0)) {
        runs[p] = 0;
        continue;
      }
      time_peer(c, p, per, &one);
      if (p >= P_FRAME) frame_close(c);
      for (size_t i = 0; i < one.n; i++) bench_stats_add(&pool[p], one.v[i]);
      rp[p * MAXROUNDS + r] = p50_of(&one);
    }
  }
  double *p50 = p50s[c->kind][c->z][c->si];
  for (int p = 0; p < NPEER; p++) p50[p] = runs[p] ? p50_of(&pool[p]) : 0;
  double g = p50[P_GRAPH], d = p50[P_PDL];
  row("launch + sync", c->s, &pool[P_LAUNCH], g, d);
  row("CUDA graph + sync", c->s, &pool[P_GRAPH], g, d);
  if (runs[P_PDL]) row("CUDA graph+PDL + sync", c->s, &pool[P_PDL], g, d);
  if (runs[P_PLAIN_PDL]) row("plain smooth graph+PDL + sync", c->s, &pool[P_PLAIN_PDL], g, d);
  for (int l = 0; l < NLAYOUT; l++) {
    if (!runs[P_FRAME + l]) continue;
    char what[64];
    if (l < 3) snprintf(what, sizeof what, "gpugen frame, %d blocks x 256", blocks[l]);
    else if (l == L_ONE) snprintf(what, sizeof what, "gpugen frame, one block x 1024");
    else snprintf(what, sizeof what, "gpugen frame, auto (%s, %d)", c->tuned.kernel,
                  c->tuned.blocks);
    row(what, c->s, &pool[P_FRAME + l], g, d);
  }
  for (int p = 0; p < NPEER; p++) bench_stats_free(&pool[p]);
  bench_stats_free(&one);
}

/* The fastest hand-picked layout (auto excluded: it is measured against them). */
static int best_layout(int kind, int z, int si)
{
  int best = -1;
  for (int l = 0; l < L_AUTO; l++) {
    double v = p50s[kind][z][si][P_FRAME + l];
    if (v > 0 && (best < 0 || v < p50s[kind][z][si][P_FRAME + best])) best = l;
  }
  return best;
}

/* The lowest and highest of the rounds' ratios of peer `over` to frame layout l. */
static void round_range(int kind, int z, int si, int over, int l, double *lo, double *hi)
{
  *lo = *hi = 0;
  for (int r = 0; r < rounds; r++) {
    double f = round_p50[kind][z][si][P_FRAME + l][r], v = round_p50[kind][z][si][over][r];
    if (f <= 0 || v <= 0) continue;
    double q = v / f;
    if (*lo == 0 || q < *lo) *lo = q;
    if (q > *hi) *hi = q;
  }
}

static void summary(void)
{
  printf("-- best frame (pooled p50) vs CUDA graph and vs graph+PDL; rounds: the range of the\n"
         "-- %d rounds' p50 ratios graph+PDL / that layout\n", rounds);
  printf("%-40s %7s %2s %9s %9s %9s %9s %12s %12s\n", "kind", "n", "S", "graph", "graph+PDL",
         "frame", "vs graph", "vs graph+PDL", "rounds");
  for (int kind = 0; kind < NKIND; kind++)
    for (int z = 0; z < NSIZE; z++)
      for (int si = 0; si < NS; si++) {
        const double *p50 = p50s[kind][z][si];
        int l = best_layout(kind, z, si);
        double f = l < 0 ? 0 : p50[P_FRAME + l], g = p50[P_GRAPH], p = p50[P_PDL], lo, hi;
        if (l >= 0) round_range(kind, z, si, P_PDL, l, &lo, &hi);
        else lo = hi = 0;
        printf("%-40s %7lld %2d %9.2f %9.2f %9.2f %8.2fx %11.2fx  %5.2f-%.2fx\n", kind_what[kind],
               N[z], S[si], g, p, f, f > 0 ? g / f : 0, f > 0 && p > 0 ? p / f : 0, lo, hi);
      }
  printf("-- the halo frame (mh) against the plain smooth kernel's graph+PDL (no index checks),\n"
         "-- timed in the same rounds\n");
  for (int z = 0; z < NSIZE; z++)
    for (int si = 0; si < NS; si++) {
      const double *p50 = p50s[2][z][si];
      int l = best_layout(2, z, si);
      double f = l < 0 ? 0 : p50[P_FRAME + l], p = p50[P_PLAIN_PDL], lo, hi;
      if (l >= 0) round_range(2, z, si, P_PLAIN_PDL, l, &lo, &hi);
      else lo = hi = 0;
      int lm = best_layout(1, z, si);
      double m = lm < 0 ? 0 : p50s[1][z][si][P_FRAME + lm];
      printf("n = %7lld S = %d: plain graph+PDL %8.2f  mh frame %8.2f  ratio %5.2fx (rounds "
             "%.2f-%.2fx)  m frame %8.2f  m/mh %5.2fx\n", N[z], S[si], p, f,
             f > 0 && p > 0 ? p / f : 0, lo, hi, m, f > 0 ? m / f : 0);
    }
  printf("-- auto (gg_session_tune's choice) against the best hand-picked layout, pooled p50\n"
         "-- (goal >= 0.95x)\n");
  double worst = 0;
  for (int kind = 0; kind < NKIND; kind++)
    for (int z = 0; z < NSIZE; z++)
      for (int si = 0; si < NS; si++) {
        const double *p50 = p50s[kind][z][si];
        int l = best_layout(kind, z, si);
        double a = p50[P_FRAME + L_AUTO], b = l < 0 ? 0 : p50[P_FRAME + l];
        if (a <= 0 || b <= 0) continue;
        printf("%-40s %7lld %2d  best hand %8.2f (layout %d)  auto %8.2f  %5.3fx\n",
               kind_what[kind], N[z], S[si], b, l, a, b / a);
        if (worst == 0 || b / a < worst) worst = b / a;
      }
  printf("auto / best hand, the worst row: %.3fx (goal >= 0.95)\n", worst);
  printf("-- one more dependent stage: (p50 S=8 - p50 S=1) / 7, us\n");
  for (int kind = 0; kind < NKIND; kind++)
    for (int z = 0; z < NSIZE; z++) {
      const double *one = p50s[kind][z][0], *eight = p50s[kind][z][3];
      printf("%-40s n = %7lld:", kind_what[kind], N[z]);
      for (int l = 0; l < L_AUTO; l++) {
        if (eight[P_FRAME + l] <= 0 || one[P_FRAME + l] <= 0) continue;
        double per = (eight[P_FRAME + l] - one[P_FRAME + l]) / 7;
        if (l < 3) printf("  %d blocks %.3f", blocks[l], per);
        else printf("  one block %.3f", per);
      }
      printf("  | graph %.3f  graph+PDL %.3f\n", (eight[P_GRAPH] - one[P_GRAPH]) / 7,
             (eight[P_PDL] - one[P_PDL]) / 7);
    }
}

/* Random floats in [-1, 1) from a fixed seed (xorshift). */
static void random_fill(float *v, long long n, uint32_t seed)
{
  for (long long i = 0; i < n; i++) {
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    v[i] = (float)((seed >> 8) * (2.0 / 16777216.0) - 1.0);
  }
}

int main(int argc, char **argv)
{
  if (argc > 1) iters = atoi(argv[1]);
  if (argc > 2) rounds = atoi(argv[2]);
  if (rounds < 1) rounds = 1;
  if (rounds > MAXROUNDS) rounds = MAXROUNDS;
  if (iters < 20 * rounds) iters = 20 * rounds;
  iters -= iters % rounds; /* every round times as many frames */
  if (gg_context_open(&ctx, NULL)) {
    fprintf(stderr, "no GPU: %s\n", gg_error_detail());
    return 77;
  }
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_frame_bench, &mod));
  gg_stream *stream, *pstream;
  CHECK_OK(gg_stream_open(ctx, &stream));
  CHECK_OK(gg_stream_open(ctx, &pstream));
  int pdl = gg_stream_set_pdl(pstream, 1) == GG_OK;
  if (!pdl) printf("graph+PDL: not run: %s\n", gg_error_detail());
  printf("frame_bench: %d iterations per row in %d rounds; us per frame; %s, %s\n", iters, rounds,
         gg_context_device_name(ctx), gg_context_arch(ctx));
  gg_kernel *plain;
  CHECK_OK(gg_kernel_get(mod, "smooth", &plain));
  for (int kind = 0; kind < NKIND; kind++) {
    gg_kernel *kern;
    CHECK_OK(gg_kernel_get(mod, kind_kernel[kind], &kern));
    for (int z = 0; z < NSIZE; z++) {
      long long n = N[z];
      float *hx = malloc((size_t)n * 4), *hy = malloc((size_t)n * 4);
      if (!hx || !hy) return 1;
      random_fill(hx, n, 0x9e3779b9u + (uint32_t)z);
      random_fill(hy, n, 0x85ebca6bu + (uint32_t)z);
      chain c = {.kind = kind, .z = z, .kern = kern, .plain = plain, .stream = stream,
                 .mod = mod, .hx = hx, .hy = hy};
      CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &c.x));
      CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &c.y));
      c.xy[0] = gg_arg_array(c.x), c.xy[1] = gg_arg_array(c.y), c.xy[2] = gg_arg_i64(n);
      c.yx[0] = gg_arg_array(c.y), c.yx[1] = gg_arg_array(c.x), c.yx[2] = gg_arg_i64(n);
      printf("-- %s, n = %lld floats\n", kind_what[kind], n);
      printf("%-44s %8s %8s %8s %8s %8s %8s   %s\n", "frame", "mean", "p50", "p99", "p99.9",
             "p99.99", "max", "graph/this graph+PDL/this");
      for (int si = 0; si < NS; si++) {
        c.si = si, c.s = S[si];
        c.graph[P_GRAPH] = capture(&c, kern, stream);
        c.graph[P_PDL] = pdl ? capture(&c, kern, pstream) : NULL;
        c.graph[P_PLAIN_PDL] = pdl && kind == 2 ? capture(&c, plain, pstream) : NULL;
        char fname[8];
        snprintf(fname, sizeof fname, "%s%d", kind_frame[kind], c.s);
        CHECK_OK(gg_kernel_get(mod, fname, &c.fk));
        c.kd = gg_kernel_describe(c.fk);
        CHECK_OK(gg_pack_args(c.kd, c.xy, 3, c.packed, sizeof c.packed));
        tune_chain(&c);
        time_chain(&c);
        check(&c);
        for (int p = P_GRAPH; p < P_FRAME; p++)
          if (c.graph[p]) gg_graph_free(c.graph[p]);
      }
      gg_array_free(c.x);
      gg_array_free(c.y);
      free(hx);
      free(hy);
    }
  }
  printf("every graph and frame layout checked against the CPU after its rows\n");
  summary();
  gg_stream_free(pstream);
  gg_stream_free(stream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
