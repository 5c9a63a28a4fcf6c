/*
 * beamform_bench.c - the beamformer's chain FFT -> beamform -> detect, per
 * iteration, at the shapes of bench/beamform_bench.lua (S sensors of L
 * samples, B beams: 24 x 256 x 16, 64 x 1024 x 32, 48 x 384 x 24), side by
 * side in one process:
 *   X = FFT(x) (S c2c f32 forward FFTs of L points); Y = W^H X (W: S x B
 *   steering weights); pk = max over beams and frequencies of |Y|^2
 * The ways (every one ends with pk readable by the host):
 *   cuFFT+cuBLAS graph     cufftExecC2C (one plan, batch S), cublasCgemm
 *                          (W^H X: CUBLAS_OP_C on W) and the detect kernel
 *                          (bench/beamform_ref.cu, nvcc; pk in mapped host
 *                          memory) captured once: cudaGraphLaunch + sync
 *   cuFFT+cuBLAS graph+PDL the same with the detect kernel launched with
 *                          programmatic dependent launch (its launch
 *                          overlaps the gemm's end; cuFFT's and cuBLAS's
 *                          kernels launch as the libraries launch them)
 *   gpugen graph           the frame's three kernels (bench/beamform_bench.lua
 *                          through gpugen at build time: cuFFTDx, cuBLASDx, a
 *                          max reduce) by gg_launch, captured (gg_graph),
 *                          replayed + gg_stream_sync; pk in a mapped gg array
 *   gpugen graph+PDL       the same captured from a stream with
 *                          gg_stream_set_pdl
 *   gpugen frame           the chain as one frame of a many_blocks persistent
 *                          kernel (one block per sensor, then one block per
 *                          SM: gg_session_options.blocks):
 *                          gg_session_start_packed + gg_session_wait, pk
 *                          returned in the frame's acknowledgement
 *                          (gg_session_result); the same with the detect
 *                          in the beams' post statements (<name>_fused),
 *                          and that on narrower blocks where the Lua
 *                          declares <name>_narrow (its own persistent
 *                          kernel, <name>_narrow_loop)
 *   auto                   gg_session_tune's choice among those frames,
 *                          their tile variants and block counts
 * The shapes come from the frames' descriptors (x is [S][L][2], W
 * [S][B][2]): the Lua decides them, this file lists the frames' names.
 * Before timing, each way runs once on spectra and beams poisoned with NaN
 * and its X, Y and pk are checked against a CPU chain in f64 (a naive DFT,
 * the product W^H X, the powers and their maximum); pk is checked again
 * after the timed iterations.  A difference beyond the tolerance stops the
 * bench (exit 1) before any ratio is printed.
 * Prints mean, p50, p99, p99.9, max (us) per row and, for gpugen's rows, the
 * cuFFT+cuBLAS graph's p50 and its graph+PDL's p50 divided by the row's p50
 * (> 1: faster); per shape a ratio line: the better peer graph's p50 over
 * the better gpugen frame's.  Rows and ratios also go to a CSV file.
 * Built only where CMake finds cuFFT, cuBLAS and nvcc (bench/mathdx.cmake);
 * needs MathDx to run (it says so and exits 77), a GPU (77 without).
 * Usage: beamform_bench [iterations per row, default 5000]
 *                       [CSV file, default beamform_bench.csv]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cufft.h>

#include "beamform_bench.h"
#include "beamform_ref.h"
#include "mathdx_common.h"
#include "gg.h"
#include "gg_session.h"
#include "stats.h"
#include "../tests/gg_check.h" /* CHECK_OK: the tests' assertion on a libgg call */

#define WAIT_NS 2000000000ll
/* f32 FFTs of up to 1024 points and complex dot products of up to 64
 * terms are good to a few 1e-6 of the largest value; a wrong stage, a
 * missing conjugate or a stale buffer is off by O(1) of it. */
#define TOL_XY 1e-4 /* of max |X|, max |Y| */
#define TOL_PK 2e-4 /* relative: |Y|^2 doubles |Y|'s relative error */

/* the frames of bench/beamform_bench.lua, one per shape */
static const char *const frames[] = {"s24_l256_b16", "s64_l1024_b32", "s48_l384_b24"};

static int iters = 5000;
static bench_stats st;
static FILE *csv;
static const char *device;

/* ---- one shape: its inputs, the CPU chain in f64, the ways ---- */
typedef struct chain_run {
  const char *name;
  int S, L, B;
  size_t xbytes, wbytes, ybytes; /* x and X; W; Y (complex f32) */
  float *hx, *hw;                /* the inputs, as the GPU gets them */
  double *want_x, *want_y, want_pk, max_x, max_y;
  float *got_x, *got_y; /* a way's X and Y, read back */
  /* the peer: cuFFT + cuBLAS + beamform_ref.cu */
  cufftHandle plan;
  cublasHandle_t blas;
  cudaStream_t stream;
  cudaGraphExec_t exec;
  void *x, *X, *W, *Y;
  volatile float *pk_host; /* mapped: the detect kernel writes it */
  float *pk_dev;           /* its device address */
  /* gpugen */
  gg_stream *gstream;
  gg_array *gx, *gX, *gW, *gY, *gpk_mapped, *gpk;
  gg_kernel *fft, *beams, *peak;
  gg_graph *graph;
  gg_session *s;
  int cmd;
  unsigned char packed[64];
  size_t size;
  float pk;                   /* the peak the last call gave the host */
  double graph_p50, pdl_p50;  /* the peer's rows (0: not run) */
  double best_frame;          /* the best gpugen frame's p50 */
  /* the chain's other frames, named from its own (bench/beamform_bench.lua):
     "" where the Lua declares none */
  char fused[64];             /* <name>_fused: the detect in the beams' post */
  char narrow[64];            /* <name>_narrow: that on narrower blocks ... */
  char narrow_loop[80];       /* ... in its own persistent kernel */
  int narrow_threads;         /* whose block this is */
} chain_run;

static uint32_t rng = 2026;
static float uniform(void) /* in [-1, 1) */
{
  rng = rng * 1664525u + 1013904223u;
  return (float)((double)(rng >> 8) / (1 << 23) - 1);
}

/* X[s][f] = sum over t of x[s][t] e^(-2 pi i f t / L), naive, from a table
 * of the L twiddles; Y[b][f] = sum over s of conj(W[s][b]) X[s][f]; pk the
 * largest |Y|^2.  In f64, from the f32 inputs. */
static void reference(chain_run *r)
{
  const int S = r->S, L = r->L, B = r->B;
  double *c = malloc(sizeof *c * L), *sn = malloc(sizeof *sn * L);
  if (!c || !sn) exit(1);
  for (int k = 0; k < L; k++) c[k] = cos(-2 * M_PI * k / L), sn[k] = sin(-2 * M_PI * k / L);
  r->max_x = r->max_y = r->want_pk = 0;
  for (int s = 0; s < S; s++)
    for (int f = 0; f < L; f++) {
      const float *x = r->hx + (size_t)s * L * 2;
      double re = 0, im = 0;
      for (int t = 0, k = 0; t < L; t++, k = (k + f) % L) { /* k = f t mod L */
        re += x[2 * t] * c[k] - x[2 * t + 1] * sn[k];
        im += x[2 * t] * sn[k] + x[2 * t + 1] * c[k];
      }
      double *X = r->want_x + ((size_t)s * L + f) * 2;
      X[0] = re, X[1] = im;
      r->max_x = fmax(r->max_x, fmax(fabs(re), fabs(im)));
    }
  for (int b = 0; b < B; b++)
    for (int f = 0; f < L; f++) {
      double re = 0, im = 0;
      for (int s = 0; s < S; s++) {
        const float *w = r->hw + ((size_t)s * B + b) * 2;
        const double *X = r->want_x + ((size_t)s * L + f) * 2;
        re += w[0] * X[0] + w[1] * X[1];
        im += w[0] * X[1] - w[1] * X[0];
      }
      double *Y = r->want_y + ((size_t)b * L + f) * 2;
      Y[0] = re, Y[1] = im;
      r->max_y = fmax(r->max_y, fmax(fabs(re), fabs(im)));
      r->want_pk = fmax(r->want_pk, re * re + im * im);
    }
  free(c);
  free(sn);
}

/* got against want (n floats, rows of `cols` complex values), within tol:
 * the number of bad elements, the first few printed. */
static int compare(const char *way, const char *what, const float *got, const double *want,
                   size_t n, int cols, double tol)
{
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (!(fabs(got[i] - want[i]) <= tol) && bad++ < 5)
      fprintf(stderr, "beamform_bench: %s: %s[%zu][%zu].%s = %.9g, the CPU's %.9g "
              "(tolerance %.3g)\n", way, what, i / (2 * (size_t)cols), i / 2 % (size_t)cols,
              i % 2 ? "im" : "re", got[i], want[i], tol);
  return bad;
}

/* pk (and X and Y as read back into got_x / got_y, when x_and_y) against
 * the CPU chain; exits on a difference. */
static void verify(chain_run *r, const char *way, int x_and_y)
{
  int bad = 0;
  if (x_and_y) {
    bad += compare(way, "X", r->got_x, r->want_x, r->xbytes / 4, r->L, TOL_XY * r->max_x);
    bad += compare(way, "Y", r->got_y, r->want_y, r->ybytes / 4, r->L, TOL_XY * r->max_y);
  }
  if (!(fabs(r->pk - r->want_pk) <= TOL_PK * r->want_pk)) {
    fprintf(stderr, "beamform_bench: %s: peak %.9g, the CPU's %.9g (relative tolerance %g)\n", way,
            r->pk, r->want_pk, TOL_PK);
    bad++;
  }
  if (bad) {
    fprintf(stderr, "beamform_bench: %s: WRONG (%d difference(s)); no ratio printed\n", way, bad);
    exit(1);
  }
}

/* ---- the ways: one timed call each ---- */
/* The peer's three calls on r->stream (captured); the detect launch's
 * status (0 or -1: beamform_ref.h), the one call that may be refused (a
 * capture with PDL). */
static int peer_enqueue(chain_run *r, int pdl)
{
  const cuComplex one = {1, 0}, zero = {0, 0};
  CHECKC(cufftExecC2C(r->plan, r->x, r->X, CUFFT_FORWARD));
  /* column-major, Y^T (L x B) = X^T (L x S) conj(W) (S x B), where the
   * row-major W (S x B) is the column-major B x S matrix W^T, taken with
   * CUBLAS_OP_C: (W^T)^H = conj(W) */
  CHECKC(cublasCgemm(r->blas, CUBLAS_OP_N, CUBLAS_OP_C, r->L, r->B, r->S, &one,
                     (const cuComplex *)r->X, r->L, (const cuComplex *)r->W, r->B, &zero,
                     (cuComplex *)r->Y, r->L));
  return beamform_ref_detect(r->Y, r->B * r->L, r->pk_dev, pdl, r->stream);
}
static void peer_graph(void *p)
{
  chain_run *r = p;
  CHECKC(cudaGraphLaunch(r->exec, r->stream));
  CHECKC(cudaStreamSynchronize(r->stream));
  r->pk = *r->pk_host;
}
/* gpugen's three kernels on stream s (captured) */
static void gpugen_enqueue(chain_run *r, gg_stream *s)
{
  gg_arg a_fft[2] = {gg_arg_array(r->gx), gg_arg_array(r->gX)};
  gg_arg a_beams[3] = {gg_arg_array(r->gW), gg_arg_array(r->gX), gg_arg_array(r->gY)};
  gg_arg a_peak[2] = {gg_arg_array(r->gY), gg_arg_array(r->gpk_mapped)};
  CHECK_OK(gg_launch(r->fft, s, a_fft, 2));
  CHECK_OK(gg_launch(r->beams, s, a_beams, 3));
  CHECK_OK(gg_launch(r->peak, s, a_peak, 2));
}
static void gpugen_graph(void *p)
{
  chain_run *r = p;
  CHECK_OK(gg_graph_launch(r->graph, r->gstream));
  CHECK_OK(gg_stream_sync(r->gstream));
  r->pk = *(volatile float *)gg_array_host(r->gpk_mapped);
}
static void gpugen_frame(void *p)
{
  chain_run *r = p;
  CHECK_OK(gg_session_start_packed(r->s, r->cmd, r->packed, r->size, NULL));
  CHECK_OK(gg_session_wait(r->s, WAIT_NS));
  CHECK_OK(gg_session_result(r->s, &r->pk, sizeof r->pk));
}

/* 100 warm-up calls, then iters timed ones: one table row (and CSV row);
 * pk checked again after them.  ratios: also print the peer's graph
 * p50s over this row's (gpugen's rows).  Returns the p50. */
static double row(chain_run *r, const char *way, void (*step)(void *), int ratios)
{
  bench_time(&st, 100, iters, step, r);
  verify(r, way, 0);
  bench_summary s;
  bench_stats_summarize(&st, &s);
  bench_print_short(stdout, 44, way, &s);
  if (ratios && r->graph_p50 > 0) printf("   %5.2fx", r->graph_p50 / s.p50);
  if (ratios && r->pdl_p50 > 0) printf("   %5.2fx", r->pdl_p50 / s.p50);
  printf("\n");
  fflush(stdout);
  char label[96];
  snprintf(label, sizeof label, "%s %s", r->name, way);
  bench_csv_row(csv, "beamform", label, &s, device);
  return s.p50;
}

/* The peer's graph, the detect kernel launched with PDL or without: one
 * checked replay on poisoned X, Y, pk, then the timed row.  0 when the
 * capture with PDL fails (said why). */
static double peer_row(chain_run *r, int pdl)
{
  const char *way = pdl ? "cuFFT+cuBLAS graph+PDL" : "cuFFT+cuBLAS graph";
  cudaGraph_t graph;
  CHECKC(cudaStreamBeginCapture(r->stream, cudaStreamCaptureModeThreadLocal));
  const int launched = peer_enqueue(r, pdl);
  const cudaError_t e = cudaStreamEndCapture(r->stream, &graph);
  if ((launched || e != cudaSuccess) && pdl) {
    const cudaError_t why = launched ? cudaGetLastError() : e;
    printf("%-44s not run: capture with PDL failed: %s\n", way, cudaGetErrorString(why));
    if (e == cudaSuccess) cudaGraphDestroy(graph);
    cudaGetLastError(); /* clear it */
    return 0;
  }
  CHECKC(launched);
  CHECKC(e);
  CHECKC(cudaGraphInstantiate(&r->exec, graph, 0));
  CHECKC(cudaMemsetAsync(r->X, 0xff, r->xbytes, r->stream));
  CHECKC(cudaMemsetAsync(r->Y, 0xff, r->ybytes, r->stream));
  *r->pk_host = NAN;
  peer_graph(r);
  CHECKC(cudaMemcpy(r->got_x, r->X, r->xbytes, cudaMemcpyDeviceToHost));
  CHECKC(cudaMemcpy(r->got_y, r->Y, r->ybytes, cudaMemcpyDeviceToHost));
  verify(r, way, 1);
  const double p50 = row(r, way, peer_graph, 0);
  cudaGraphExecDestroy(r->exec);
  cudaGraphDestroy(graph);
  return p50;
}

static void peer_rows(chain_run *r)
{
  CHECKC(cudaMalloc(&r->x, r->xbytes));
  CHECKC(cudaMalloc(&r->X, r->xbytes));
  CHECKC(cudaMalloc(&r->W, r->wbytes));
  CHECKC(cudaMalloc(&r->Y, r->ybytes));
  CHECKC(cudaMemcpy(r->x, r->hx, r->xbytes, cudaMemcpyHostToDevice));
  CHECKC(cudaMemcpy(r->W, r->hw, r->wbytes, cudaMemcpyHostToDevice));
  CHECKC(cudaDeviceSynchronize()); /* r->stream does not wait for the legacy stream's copies */
  float *pk;
  CHECKC(cudaHostAlloc((void **)&pk, sizeof *pk, cudaHostAllocMapped));
  CHECKC(cudaHostGetDevicePointer((void **)&r->pk_dev, pk, 0));
  r->pk_host = pk;
  CHECKC(cufftPlan1d(&r->plan, r->L, CUFFT_C2C, r->S));
  CHECKC(cufftSetStream(r->plan, r->stream));
  CHECKC(cublasSetStream(r->blas, r->stream));

  r->graph_p50 = peer_row(r, 0);
  r->pdl_p50 = peer_row(r, 1);

  cufftDestroy(r->plan);
  cudaFreeHost(pk);
  cudaFree(r->x);
  cudaFree(r->X);
  cudaFree(r->W);
  cudaFree(r->Y);
}

/* X, Y := NaN (all bits set), pk too, so a stage that writes nothing shows. */
static void poison(chain_run *r)
{
  memset(r->got_x, 0xff, r->xbytes);
  memset(r->got_y, 0xff, r->ybytes);
  CHECK_OK(gg_copy_from_host(r->gX, 0, r->got_x, r->xbytes, NULL));
  CHECK_OK(gg_copy_from_host(r->gY, 0, r->got_y, r->ybytes, NULL));
  *(volatile float *)gg_array_host(r->gpk_mapped) = NAN;
  r->pk = NAN;
}
static void read_back(chain_run *r)
{
  CHECK_OK(gg_copy_to_host(r->got_x, r->gX, 0, r->xbytes, NULL));
  CHECK_OK(gg_copy_to_host(r->got_y, r->gY, 0, r->ybytes, NULL));
}

/* gpugen's kernels captured from stream s (PDL on it or not): one checked
 * replay, then the timed row. */
static void graph_row(chain_run *r, const char *way, gg_stream *s)
{
  CHECK_OK(gg_graph_capture_begin(s, &r->graph));
  gpugen_enqueue(r, s);
  CHECK_OK(gg_graph_capture_end(r->graph));
  poison(r);
  gpugen_graph(r);
  read_back(r);
  verify(r, way, 1);
  row(r, way, gpugen_graph, 1);
  gg_graph_free(r->graph);
}

/* The threads a block of persistent kernel `persistent`: the FFT
 * stage's of its frames */
static int threads_of(const chain_run *r, const char *persistent)
{
  if (strcmp(persistent, r->narrow_loop) == 0) return r->narrow_threads;
  return gg_kernel_describe(r->fft)->block_size;
}

/* The chain as frame `command` of persistent kernel `persistent` on
 * `blocks` blocks (0: the Lua's, one per sensor): one frame checked (X
 * and Y read after the kernel has ended), a fresh session timed, then a
 * third one with statistics on to split the frame (gg_session_stats:
 * host -> GPU, the GPU's own part, GPU -> host; device times cost a few
 * ns, so this pass is printed apart and not timed as the row).  Returns
 * the timed pass's p50. */
static double frame_row(chain_run *r, gg_module *mod, const char *persistent,
                        const char *command, int blocks, const char *label)
{
  gg_session_options opt = {.blocks = blocks};
  char way[96];
  double p50 = 0;
  for (int pass = 0; pass < 3; pass++) {
    opt.stats_frames = pass == 2 ? (uint64_t)iters + 100 : 0;
    CHECK_OK(gg_session_open(mod, persistent, &opt, &r->s));
    CHECK_OK(gg_session_command(r->s, command, &r->cmd));
    snprintf(way, sizeof way, "%s (%d blocks x %d thr)", label, gg_session_blocks(r->s),
             threads_of(r, persistent));
    if (pass == 0) {
      poison(r);
      gpugen_frame(r);
    } else if (pass == 1) {
      p50 = row(r, way, gpugen_frame, 1);
      if (r->best_frame == 0 || p50 < r->best_frame) r->best_frame = p50;
    } else {
      bench_time(&st, 100, iters, gpugen_frame, r);
      gg_stats gs;
      CHECK_OK(gg_session_stats(r->s, &gs));
      printf("%-44s p50 us: to GPU %.2f, GPU %.2f, to host %.2f (with device times: %.2f)\n",
             "  split", gs.part[GG_PART_TO_GPU].p50_ns / 1e3, gs.part[GG_PART_GPU].p50_ns / 1e3,
             gs.part[GG_PART_TO_HOST].p50_ns / 1e3, gs.p50_ns / 1e3);
    }
    CHECK_OK(gg_session_terminate(r->s));
    gg_session_free(r->s);
    if (pass == 0) { /* the kernel has ended: its writes to X and Y are visible */
      read_back(r);
      verify(r, way, 1);
    }
  }
  return p50;
}

/* The auto row: gg_session_tune over the chain's frame and its
 * alternatives - written with the detect in the beams' post statements,
 * and that on narrower blocks where the Lua declares it (the same
 * arguments, the same pk) - on their persistent kernels at their
 * candidate block counts; the choice checked and timed like the
 * hand-picked rows, and its ratio to the best of them (goal >= 0.95x). */
static void auto_row(chain_run *r, gg_module *mod, double best_hand)
{
  const char *alternatives[3] = {NULL, NULL, NULL};
  int na = 0;
  if (r->fused[0]) alternatives[na++] = r->fused;
  if (r->narrow[0]) alternatives[na++] = r->narrow;
  const gg_arg args[5] = {gg_arg_array(r->gx), gg_arg_array(r->gX), gg_arg_array(r->gW),
                          gg_arg_array(r->gY), gg_arg_array(r->gpk)};
  gg_tune_options o = {.alternatives = alternatives};
  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, r->name, args, 5, &o, &t));
  char label[96];
  snprintf(label, sizeof label, "auto: %s", t.command);
  const double a = frame_row(r, mod, t.kernel, t.command, t.blocks, label);
  printf("  tuned from %d candidates in %.0f ms (%s); best hand-picked frame %.2f: auto %.3fx "
         "it (goal >= 0.95)\n", t.nrows, t.tune_ms, t.note, best_hand, best_hand / a);
}

static void gpugen_rows(chain_run *r, gg_context *ctx, gg_module *mod, gg_kernel *frame)
{
  char name[96];
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, r->xbytes, &r->gx));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, r->xbytes, &r->gX));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, r->wbytes, &r->gW));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, r->ybytes, &r->gY));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float), &r->gpk_mapped));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float), &r->gpk));
  CHECK_OK(gg_copy_from_host(r->gx, 0, r->hx, r->xbytes, NULL));
  CHECK_OK(gg_copy_from_host(r->gW, 0, r->hw, r->wbytes, NULL));
  snprintf(name, sizeof name, "%s_fft", r->name);
  CHECK_OK(gg_kernel_get(mod, name, &r->fft));
  snprintf(name, sizeof name, "%s_beams", r->name);
  CHECK_OK(gg_kernel_get(mod, name, &r->beams));
  snprintf(name, sizeof name, "%s_peak", r->name);
  CHECK_OK(gg_kernel_get(mod, name, &r->peak));
  gg_kernel *k;
  snprintf(r->fused, sizeof r->fused, "%s_fused", r->name);
  if (gg_kernel_get(mod, r->fused, &k) != GG_OK) r->fused[0] = 0;
  snprintf(r->narrow, sizeof r->narrow, "%s_narrow", r->name);
  snprintf(r->narrow_loop, sizeof r->narrow_loop, "%s_loop", r->narrow);
  snprintf(name, sizeof name, "%s_fft", r->narrow);
  if (gg_kernel_get(mod, r->narrow, &k) == GG_OK && gg_kernel_get(mod, name, &k) == GG_OK)
    r->narrow_threads = gg_kernel_describe(k)->block_size;
  else
    r->narrow[0] = r->narrow_loop[0] = 0;

  graph_row(r, "gpugen graph", r->gstream);
  gg_stream *pdl;
  CHECK_OK(gg_stream_open(ctx, &pdl));
  if (gg_stream_set_pdl(pdl, 1) == GG_OK)
    graph_row(r, "gpugen graph+PDL", pdl);
  else
    printf("%-44s not run: %s\n", "gpugen graph+PDL", gg_error_detail());
  gg_stream_free(pdl);

  const gg_arg args[5] = {gg_arg_array(r->gx), gg_arg_array(r->gX), gg_arg_array(r->gW),
                          gg_arg_array(r->gY), gg_arg_array(r->gpk)};
  CHECK_OK(gg_pack_args(gg_kernel_describe(frame), args, 5, r->packed, sizeof r->packed));
  r->size = gg_kernel_describe(frame)->args_size;
  char loop[64];
  snprintf(loop, sizeof loop, "%s_loop", r->name);
  const int sms = gg_context_sm_count(ctx);
  frame_row(r, mod, loop, r->name, 0, "gpugen frame");
  frame_row(r, mod, loop, r->name, sms, "gpugen frame");
  if (r->fused[0]) {
    frame_row(r, mod, loop, r->fused, 0, "gpugen frame, detect in post");
    frame_row(r, mod, loop, r->fused, sms, "gpugen frame, detect in post");
  }
  if (r->narrow[0]) {
    frame_row(r, mod, r->narrow_loop, r->narrow, 0, "gpugen frame, detect in post, narrow");
    frame_row(r, mod, r->narrow_loop, r->narrow, sms, "gpugen frame, detect in post, narrow");
  }
  const double best_hand = r->best_frame;
  auto_row(r, mod, best_hand);

  gg_array_free(r->gx);
  gg_array_free(r->gX);
  gg_array_free(r->gW);
  gg_array_free(r->gY);
  gg_array_free(r->gpk_mapped);
  gg_array_free(r->gpk);
}

/* Extent i of the frame's view `name` (static: the Lua's number). */
static int extent(const gg_kernel_desc *kd, const char *name, int i)
{
  for (int p = 0; p < kd->nparams; p++)
    if (!strcmp(kd->params[p].name, name) && kd->params[p].extents[i].param < 0)
      return (int)kd->params[p].extents[i].value;
  fprintf(stderr, "beamform_bench: frame %s has no static view %s\n", kd->name, name);
  exit(1);
}

/* Every row of one shape: inputs, the CPU chain, the peer, gpugen, the
 * ratio line. */
static void shape_rows(chain_run *r, gg_context *ctx, gg_module *mod)
{
  gg_kernel *frame;
  CHECK_OK(gg_kernel_get(mod, r->name, &frame));
  const gg_kernel_desc *kd = gg_kernel_describe(frame);
  r->S = extent(kd, "x", 0), r->L = extent(kd, "x", 1), r->B = extent(kd, "W", 1);
  r->xbytes = (size_t)r->S * r->L * 8;
  r->wbytes = (size_t)r->S * r->B * 8;
  r->ybytes = (size_t)r->B * r->L * 8;
  r->hx = malloc(r->xbytes), r->hw = malloc(r->wbytes);
  r->got_x = malloc(r->xbytes), r->got_y = malloc(r->ybytes);
  r->want_x = malloc(r->xbytes * 2), r->want_y = malloc(r->ybytes * 2);
  if (!r->hx || !r->hw || !r->got_x || !r->got_y || !r->want_x || !r->want_y) exit(1);
  for (size_t i = 0; i < r->xbytes / 4; i++) r->hx[i] = uniform();
  for (size_t i = 0; i < r->wbytes / 4; i++) r->hw[i] = uniform();
  reference(r);
  printf("\n%s: %d sensors x %d points, %d beams (peak |Y|^2 %.6g)\n", r->name, r->S, r->L, r->B,
         r->want_pk);

  peer_rows(r);
  gpugen_rows(r, ctx, mod, frame);

  const double peer = r->pdl_p50 > 0 && r->pdl_p50 < r->graph_p50 ? r->pdl_p50 : r->graph_p50;
  printf("%s ratio: cuFFT+cuBLAS graph p50 / gpugen frame p50 = %.2f / %.2f = %.2fx\n", r->name,
         peer, r->best_frame, peer / r->best_frame);
  char label[96];
  snprintf(label, sizeof label, "%s graph_p50/frame_p50", r->name);
  bench_csv_value(csv, "beamform", label, peer / r->best_frame, device);
  free(r->hx), free(r->hw), free(r->got_x), free(r->got_y), free(r->want_x), free(r->want_y);
}

int main(int argc, char **argv)
{
  gg_context *ctx = mathdx_bench_start(argc, argv, &iters);
  device = gg_context_device_name(ctx);
  csv = bench_csv_open(argc > 2 ? argv[2] : "beamform_bench.csv");
  double t0 = bench_now_us();
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_beamform_bench, &mod));
  printf("beamform_bench on %s: %d iterations per row; module loaded in %.1f s (NVRTC or the "
         "cache)\n", device, iters, (bench_now_us() - t0) / 1e6);
  printf("us per chain: S c2c f32 FFTs of L points -> Y = W^H X (B beams) -> max |Y|^2, the "
         "peak in host memory; every way checked against a CPU chain in f64\n");
  printf("%-44s %9s %9s %9s %9s %9s   %s\n", "row", "mean", "p50", "p99", "p99.9", "max",
         "graph p50 / p50, graph+PDL p50 / p50");
  chain_run r = {0};
  CHECKC(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
  CHECKC(cublasCreate(&r.blas));
  CHECKC(cublasSetMathMode(r.blas, CUBLAS_DEFAULT_MATH)); /* f32 FMAs, no TF32 */
  CHECK_OK(gg_stream_open(ctx, &r.gstream));
  bench_stats_init(&st, (size_t)iters);
  for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
    chain_run shape = r;
    shape.name = frames[i];
    shape_rows(&shape, ctx, mod);
  }
  bench_stats_free(&st);
  if (csv) fclose(csv);
  gg_stream_free(r.gstream);
  cublasDestroy(r.blas);
  cudaStreamDestroy(r.stream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
