/*
 * fft_chain_bench.c - the chain FFT -> filter -> inverse FFT -> energy on a
 * batch of 16 c2c f32 signals of 4096 points, per iteration, side by side
 * in one process:
 *   X = FFT(x); X *= H (a complex gain per frequency, with the round trip's
 *   1/4096); X = IFFT(X) in place; e = sum over the batch of |X|^2 (in f64)
 * The ways (every one ends with e readable by the host):
 *   cuFFT launch + sync    cufftExecC2C forward, the filter kernel,
 *                          cufftExecC2C inverse, the energy kernel
 *                          (bench/fft_chain_ref.cu, nvcc) on a stream;
 *                          cudaStreamSynchronize; e in mapped host memory
 *   cuFFT graph            the same four captured once: cudaGraphLaunch + sync
 *   gpugen launch + sync   the frame's four kernels (bench/fft_chain_bench.lua
 *                          through gpugen at build time; cuFFTDx FFTs of 256,
 *                          512 or 1024 threads) by gg_launch, gg_stream_sync;
 *                          e in a mapped gg array
 *   gpugen graph           the same four launches captured (gg_graph), replayed
 *                          + sync: the kernels against cuFFT's, with the same
 *                          launch path
 *   gpugen frame           the chain as one frame of a many_blocks persistent
 *                          kernel (16 blocks: one per signal; or one block of
 *                          512 threads per SM, gg_session_options.blocks);
 *                          chainf512 filters with a for stage and sums the
 *                          energy with a reduce stage (3 grid barriers);
 *                          chain<threads> does both as team stages on each
 *                          block's own signal (block barriers only);
 *                          fused<threads> has no filter or energy stage:
 *                          they are the FFTs' post statements (two stages,
 *                          one block barrier); roundtrip<threads> is one
 *                          stage: a round-trip FFT with the filter as its
 *                          between statements, the energy as its post:
 *                          gg_session_start_packed +
 *                          gg_session_wait, e returned in the frame's
 *                          acknowledgement (gg_session_result)
 *   auto                   the frame gg_session_tune chooses among all of
 *                          those frames, kernels and block counts, with its
 *                          ratio to the best hand-picked frame (goal >= 0.95x)
 *   auto (block "auto")    roundtrip_auto, the round trip declared once with
 *                          the FFT's block = "auto": gg_session_tune with
 *                          nothing named chooses among the thread-count
 *                          variants gpugen made (and block counts)
 * Before timing, each way's e and X are checked against a CPU chain in f64
 * (a radix-2 FFT): a difference beyond the tolerance stops the bench (exit 1);
 * e is checked again after the timed iterations.
 * Prints mean, p50, p99, p99.9, max (us) and, per row, the cuFFT graph's p50
 * and the cuFFT launch's p50 divided by the row's p50 (> 1: faster).
 * Built only where CMake finds cuFFT and nvcc (bench/mathdx.cmake); needs
 * MathDx to run (it says so and exits 77), a GPU (77 without).
 * Usage: fft_chain_bench [iterations per row, default 5000]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cufft.h>

#include "fft_chain_bench.h"
#include "fft_chain_ref.h"
#include "mathdx_common.h"
#include "gg.h"
#include "gg_session.h"
#include "stats.h"
#include "../tests/gg_check.h" /* CHECK_OK: the tests' assertion on a libgg call */

#define N 4096 /* points per signal (the Lua's N) */
#define NB 16  /* signals per batch */
#define WAIT_NS 2000000000ll
/* f32 FFTs of 4096 points are good to ~1e-6 of the signal's scale; a
 * wrong filter, a missing stage or a stale buffer is off by O(1). */
#define TOL_Y 1e-4 /* of max |y| */
#define TOL_E 1e-5 /* relative */

static int iters = 5000;

/* ---- the CPU chain in f64 ---- */
static float hx[NB * N * 2], hh[N * 2]; /* the inputs, as the GPU gets them */
static double want[NB * N * 2], want_e, want_ymax;

/* In-place radix-2 DFT of n complex values (n a power of two), sign -1
 * forward, +1 inverse, unnormalized; twiddles from cos / sin each. */
static void cpu_fft(double *z, int n, int sign)
{
  for (int i = 1, j = 0; i < n; i++) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j)
      for (int c = 0; c < 2; c++) {
        double t = z[2 * i + c];
        z[2 * i + c] = z[2 * j + c];
        z[2 * j + c] = t;
      }
  }
  for (int len = 2; len <= n; len <<= 1)
    for (int k = 0; k < len / 2; k++) {
      const double a = sign * 2 * M_PI * k / len, wr = cos(a), wi = sin(a);
      for (int i = k; i < n; i += len) {
        double *u = z + 2 * i, *v = z + 2 * (i + len / 2);
        const double tr = v[0] * wr - v[1] * wi, ti = v[0] * wi + v[1] * wr;
        v[0] = u[0] - tr;
        v[1] = u[1] - ti;
        u[0] += tr;
        u[1] += ti;
      }
    }
}

/* Random signals and a random complex gain per frequency (|H| up to 1/N,
 * any phase), and the chain on them in f64 into want / want_e. */
static void make_inputs(void)
{
  srand(16);
  for (int i = 0; i < NB * N * 2; i++) hx[i] = (float)(2.0 * rand() / RAND_MAX - 1);
  for (int k = 0; k < N; k++) {
    const double g = (double)rand() / RAND_MAX / N, p = 2 * M_PI * rand() / RAND_MAX;
    hh[2 * k] = (float)(g * cos(p));
    hh[2 * k + 1] = (float)(g * sin(p));
  }
  want_e = want_ymax = 0;
  for (int b = 0; b < NB; b++) {
    double *z = want + (size_t)b * N * 2;
    for (int i = 0; i < 2 * N; i++) z[i] = hx[(size_t)b * N * 2 + i];
    cpu_fft(z, N, -1);
    for (int k = 0; k < N; k++) {
      const double re = z[2 * k], im = z[2 * k + 1];
      z[2 * k] = re * hh[2 * k] - im * hh[2 * k + 1];
      z[2 * k + 1] = re * hh[2 * k + 1] + im * hh[2 * k];
    }
    cpu_fft(z, N, +1);
    for (int i = 0; i < 2 * N; i++) {
      want_e += z[i] * z[i];
      if (fabs(z[i]) > want_ymax) want_ymax = fabs(z[i]);
    }
  }
}

/* e (and y = X after the chain, when given) against the CPU chain; exits. */
static void verify(const char *way, double e, const float *y)
{
  int bad = 0;
  for (int i = 0; y && i < NB * N * 2 && bad < 5; i++)
    if (!(fabs(y[i] - want[i]) <= TOL_Y * want_ymax)) {
      fprintf(stderr, "fft_chain_bench: %s: y[%d][%d].%s = %.9g, the CPU's %.9g (tolerance %.3g)\n",
              way, i / (2 * N), i / 2 % N, i % 2 ? "im" : "re", y[i], want[i], TOL_Y * want_ymax);
      bad++;
    }
  if (!(fabs(e - want_e) <= TOL_E * want_e)) {
    fprintf(stderr, "fft_chain_bench: %s: energy %.9g, the CPU's %.9g (relative tolerance %g)\n",
            way, e, want_e, TOL_E);
    bad++;
  }
  if (bad) exit(1);
}

/* ---- the ways: one timed call each, over one struct ---- */
typedef struct chain_run {
  /* the peer: cuFFT + fft_chain_ref.cu */
  cufftHandle plan;
  cudaStream_t stream;
  cudaGraphExec_t exec;
  void *x, *X, *H;
  volatile double *e_host; /* mapped: the energy kernel writes it */
  double *e_dev;           /* its device address */
  /* gpugen */
  gg_stream *gstream;
  gg_array *gx, *gX, *gH, *ge_mapped, *ge;
  gg_kernel *fwd, *filt, *inv, *energy;
  gg_graph *graph; /* the four kernels captured */
  gg_session *s;
  int cmd;
  unsigned char packed[64];
  size_t size;
  double e; /* the energy the last call gave the host */
} chain_run;

static void peer_enqueue(chain_run *r)
{
  CHECKC(cufftExecC2C(r->plan, r->x, r->X, CUFFT_FORWARD));
  CHECKC(fft_chain_ref_filter(r->X, r->H, N, NB, r->stream));
  CHECKC(cufftExecC2C(r->plan, r->X, r->X, CUFFT_INVERSE));
  CHECKC(fft_chain_ref_energy(r->X, N, NB, r->e_dev, r->stream));
}
static void peer_launch(void *p)
{
  chain_run *r = p;
  peer_enqueue(r);
  CHECKC(cudaStreamSynchronize(r->stream));
  r->e = *r->e_host;
}
static void peer_graph(void *p)
{
  chain_run *r = p;
  CHECKC(cudaGraphLaunch(r->exec, r->stream));
  CHECKC(cudaStreamSynchronize(r->stream));
  r->e = *r->e_host;
}
/* gpugen's four kernels on r->gstream (launched, or captured). */
static void gpugen_enqueue(chain_run *r)
{
  const gg_arg nb = gg_arg_i64(NB);
  gg_arg a_fwd[3] = {gg_arg_array(r->gx), gg_arg_array(r->gX), nb};
  gg_arg a_filt[3] = {gg_arg_array(r->gX), gg_arg_array(r->gH), nb};
  gg_arg a_inv[2] = {gg_arg_array(r->gX), nb};
  gg_arg a_energy[3] = {gg_arg_array(r->gX), gg_arg_array(r->ge_mapped), nb};
  CHECK_OK(gg_launch(r->fwd, r->gstream, a_fwd, 3));
  CHECK_OK(gg_launch(r->filt, r->gstream, a_filt, 3));
  CHECK_OK(gg_launch(r->inv, r->gstream, a_inv, 2));
  CHECK_OK(gg_launch(r->energy, r->gstream, a_energy, 3));
}
static void gpugen_launch(void *p)
{
  chain_run *r = p;
  gpugen_enqueue(r);
  CHECK_OK(gg_stream_sync(r->gstream));
  r->e = *(volatile double *)gg_array_host(r->ge_mapped);
}
static void gpugen_graph(void *p)
{
  chain_run *r = p;
  CHECK_OK(gg_graph_launch(r->graph, r->gstream));
  CHECK_OK(gg_stream_sync(r->gstream));
  r->e = *(volatile double *)gg_array_host(r->ge_mapped);
}
static void gpugen_frame(void *p)
{
  chain_run *r = p;
  CHECK_OK(gg_session_start_packed(r->s, r->cmd, r->packed, r->size, NULL));
  CHECK_OK(gg_session_wait(r->s, WAIT_NS));
  CHECK_OK(gg_session_result(r->s, &r->e, sizeof r->e));
}

static bench_stats st;
static double peer_graph_p50, peer_launch_p50;

/* 100 warm-up calls, then iters timed ones: one table row; e checked
 * again after them. */
static double row(const char *way, void (*step)(void *), chain_run *r)
{
  bench_time(&st, 100, iters, step, r);
  verify(way, r->e, NULL);
  bench_summary s;
  bench_stats_summarize(&st, &s);
  bench_print_short(stdout, 40, way, &s);
  if (peer_graph_p50 > 0 && peer_launch_p50 > 0) /* the gpugen rows */
    printf("   %5.2fx   %5.2fx", peer_graph_p50 / s.p50, peer_launch_p50 / s.p50);
  printf("\n");
  fflush(stdout);
  return s.p50;
}

static float ybuf[NB * N * 2];
static const size_t cbytes = sizeof ybuf; /* one batch of complex f32 */

static void peer_rows(chain_run *r)
{
  CHECKC(cudaMalloc(&r->x, cbytes));
  CHECKC(cudaMalloc(&r->X, cbytes));
  CHECKC(cudaMalloc(&r->H, sizeof hh));
  CHECKC(cudaMemcpy(r->x, hx, cbytes, cudaMemcpyHostToDevice));
  CHECKC(cudaMemcpy(r->H, hh, sizeof hh, cudaMemcpyHostToDevice));
  CHECKC(cudaDeviceSynchronize()); /* r->stream does not wait for the legacy stream's copies */
  double *e;
  CHECKC(cudaHostAlloc((void **)&e, sizeof *e, cudaHostAllocMapped));
  CHECKC(cudaHostGetDevicePointer((void **)&r->e_dev, e, 0));
  r->e_host = e;
  CHECKC(cufftPlan1d(&r->plan, N, CUFFT_C2C, NB));
  CHECKC(cufftSetStream(r->plan, r->stream));

  /* check on a poisoned X and e (NaN) first */
  CHECKC(cudaMemsetAsync(r->X, 0xff, cbytes, r->stream));
  *r->e_host = NAN;
  peer_launch(r);
  CHECKC(cudaMemcpy(ybuf, r->X, cbytes, cudaMemcpyDeviceToHost));
  verify("cuFFT launch + sync", r->e, ybuf);
  peer_launch_p50 = row("cuFFT launch + sync", peer_launch, r);

  cudaGraph_t graph;
  CHECKC(cudaStreamBeginCapture(r->stream, cudaStreamCaptureModeThreadLocal));
  peer_enqueue(r);
  CHECKC(cudaStreamEndCapture(r->stream, &graph));
  CHECKC(cudaGraphInstantiate(&r->exec, graph, 0));
  CHECKC(cudaMemsetAsync(r->X, 0xff, cbytes, r->stream));
  *r->e_host = NAN;
  peer_graph(r);
  CHECKC(cudaMemcpy(ybuf, r->X, cbytes, cudaMemcpyDeviceToHost));
  verify("cuFFT graph", r->e, ybuf);
  peer_graph_p50 = row("cuFFT graph", peer_graph, r);

  cudaGraphExecDestroy(r->exec);
  cudaGraphDestroy(graph);
  cufftDestroy(r->plan);
  cudaFreeHost(e);
  cudaFree(r->x);
  cudaFree(r->X);
  cudaFree(r->H);
}

/* X := NaN (all bits set), so a stage that writes nothing shows. */
static void poison(chain_run *r)
{
  memset(ybuf, 0xff, cbytes);
  CHECK_OK(gg_copy_from_host(r->gX, 0, ybuf, cbytes, NULL));
}

/* One check, then the timed row, of gpugen's kernels launched (or their
 * graph replayed: step). */
static void kernels_row(chain_run *r, const char *way, void (*step)(void *))
{
  poison(r);
  *(double *)gg_array_host(r->ge_mapped) = NAN;
  step(r);
  CHECK_OK(gg_copy_to_host(ybuf, r->gX, 0, cbytes, NULL));
  verify(way, r->e, ybuf);
  row(way, step, r);
}

/* gpugen's kernels of one FFT thread count, launched one by one, and
 * captured in a graph (gg_graph: a CUDA graph of the same launches). */
static void launch_rows(chain_run *r, gg_module *mod, int block)
{
  char name[32], way[64];
  snprintf(name, sizeof name, "fwd%d", block);
  CHECK_OK(gg_kernel_get(mod, name, &r->fwd));
  snprintf(name, sizeof name, "inv%d", block);
  CHECK_OK(gg_kernel_get(mod, name, &r->inv));
  snprintf(way, sizeof way, "gpugen launch + sync (fft %d thr)", block);
  kernels_row(r, way, gpugen_launch);
  CHECK_OK(gg_graph_capture_begin(r->gstream, &r->graph));
  gpugen_enqueue(r);
  CHECK_OK(gg_graph_capture_end(r->graph));
  snprintf(way, sizeof way, "gpugen graph (fft %d thr)", block);
  kernels_row(r, way, gpugen_graph);
  gg_graph_free(r->graph);
}

/* The chain as frame `frame` of persistent kernel `persistent` on
 * `blocks` blocks (0: the Lua's): one frame checked (X read after the
 * kernel has ended), then a fresh session timed. */
static double frame_row(chain_run *r, gg_module *mod, const char *persistent, const char *frame,
                        int block, int blocks)
{
  double p50 = 0;
  const gg_session_options opt = {.blocks = blocks}; /* 0: the module's (16) */
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, frame, &k));
  gg_arg args[5] = {gg_arg_array(r->gx), gg_arg_array(r->gX), gg_arg_array(r->gH),
                    gg_arg_array(r->ge), gg_arg_i64(NB)};
  CHECK_OK(gg_pack_args(gg_kernel_describe(k), args, 5, r->packed, sizeof r->packed));
  r->size = gg_kernel_describe(k)->args_size;
  char way[64];
  for (int pass = 0; pass < 2; pass++) {
    CHECK_OK(gg_session_open(mod, persistent, &opt, &r->s));
    CHECK_OK(gg_session_command(r->s, frame, &r->cmd));
    const int blocks = gg_session_blocks(r->s);
    snprintf(way, sizeof way, "gpugen frame %s (%d x %d thr)", frame, blocks, block);
    if (pass == 0) {
      poison(r);
      r->e = NAN;
      gpugen_frame(r);
    } else {
      p50 = row(way, gpugen_frame, r);
    }
    CHECK_OK(gg_session_terminate(r->s));
    gg_session_free(r->s);
    if (pass == 0) { /* the kernel has ended: its writes to X are visible */
      CHECK_OK(gg_copy_to_host(ybuf, r->gX, 0, cbytes, NULL));
      double in_e;
      CHECK_OK(gg_copy_to_host(&in_e, r->ge, 0, sizeof in_e, NULL));
      if (!(in_e == r->e)) /* the acknowledgement carries what the frame left in e */
        fprintf(stderr, "fft_chain_bench: %s: e holds %.9g, the acknowledgement %.9g\n", way, in_e,
                r->e);
      verify(way, r->e, ybuf);
    }
  }
  return p50;
}

/* The auto row: gg_session_tune over every frame of the chain (the
 * thread counts and the three ways of writing it are alternatives: the
 * same arguments, the same result) on the three persistent kernels at
 * their candidate block counts; the choice checked and timed like the
 * hand-picked rows, and its ratio to the best of them (goal >= 0.95x). */
static void auto_row(chain_run *r, gg_module *mod, double best_hand)
{
  static const char *const alternatives[] = {"chain256", "fused256", "roundtrip256", "chain512",
                                             "fused512", "roundtrip512", "chain1024", "fused1024",
                                             "roundtrip1024", NULL};
  gg_arg args[5] = {gg_arg_array(r->gx), gg_arg_array(r->gX), gg_arg_array(r->gH),
                    gg_arg_array(r->ge), gg_arg_i64(NB)};
  gg_tune_options o = {.alternatives = alternatives};
  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, "chainf512", args, 5, &o, &t));
  printf("auto: ");
  double a = frame_row(r, mod, t.kernel, t.command, atoi(t.kernel + 1), t.blocks);
  printf("  tuned from %d candidates in %.0f ms (%s); best hand-picked frame %.2f: auto "
         "%.3fx it (goal >= 0.95)\n", t.nrows, t.tune_ms, t.note, best_hand, best_hand / a);
}

/* The block of persistent kernel `name`, from the module's descriptor. */
static int block_of(const char *name)
{
  const gg_module_desc *md = &gg_module_fft_chain_bench;
  for (int i = 0; i < md->npersistent; i++)
    if (strcmp(md->persistent[i].name, name) == 0) return md->persistent[i].block_size;
  return 0;
}

/* The second auto row: roundtrip_auto, one frame whose FFT has block =
 * "auto", tuned with nothing named: the candidates are the thread-count
 * variants gpugen made (ba_threads<t> running roundtrip_auto_threads<t>)
 * at their block counts. */
static void auto_threads_row(chain_run *r, gg_module *mod, double best_hand)
{
  gg_arg args[5] = {gg_arg_array(r->gx), gg_arg_array(r->gX), gg_arg_array(r->gH),
                    gg_arg_array(r->ge), gg_arg_i64(NB)};
  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, "roundtrip_auto", args, 5, NULL, &t));
  printf("auto, block \"auto\": ");
  double a = frame_row(r, mod, t.kernel, t.command, block_of(t.kernel), t.blocks);
  printf("  tuned from %d candidates in %.0f ms (%s); best hand-picked frame %.2f: auto "
         "%.3fx it (goal >= 0.95)\n", t.nrows, t.tune_ms, t.note, best_hand, best_hand / a);
}

static double best_of(double a, double b) { return a > 0 && a < b ? a : b; }

static void gpugen_rows(chain_run *r, gg_context *ctx, gg_module *mod)
{
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, cbytes, &r->gx));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, cbytes, &r->gX));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof hh, &r->gH));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(double), &r->ge_mapped));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(double), &r->ge));
  CHECK_OK(gg_copy_from_host(r->gx, 0, hx, cbytes, NULL));
  CHECK_OK(gg_copy_from_host(r->gH, 0, hh, sizeof hh, NULL));
  CHECK_OK(gg_kernel_get(mod, "filt", &r->filt));
  CHECK_OK(gg_kernel_get(mod, "energy", &r->energy));
  launch_rows(r, mod, 256);
  launch_rows(r, mod, 512);
  launch_rows(r, mod, 1024);
  /* the filter as a for stage over the whole grid and the energy as a
     reduce (3 grid barriers), then both as team stages on each block's
     own signal (no grid barrier) */
  double best = 0;
  best = best_of(best, frame_row(r, mod, "b512", "chainf512", 512, 0));
  /* then each thread count with the filter and the energy as stages of
     their own and fused into the FFTs' post statements, side by side */
  best = best_of(best, frame_row(r, mod, "b256", "chain256", 256, 0));
  best = best_of(best, frame_row(r, mod, "b256", "fused256", 256, 0));
  best = best_of(best, frame_row(r, mod, "b256", "roundtrip256", 256, 0));
  best = best_of(best, frame_row(r, mod, "b512", "chain512", 512, 0));
  best = best_of(best, frame_row(r, mod, "b512", "fused512", 512, 0));
  best = best_of(best, frame_row(r, mod, "b512", "roundtrip512", 512, 0));
  best = best_of(best, frame_row(r, mod, "b1024", "chain1024", 1024, 0));
  best = best_of(best, frame_row(r, mod, "b1024", "fused1024", 1024, 0));
  best = best_of(best, frame_row(r, mod, "b1024", "roundtrip1024", 1024, 0));
  /* one block per SM: the blocks past the 16th idle in the FFTs, but
     the filter and the energy spread over every SM */
  best = best_of(best, frame_row(r, mod, "b512", "chain512", 512, gg_context_sm_count(ctx)));
  best = best_of(best, frame_row(r, mod, "b512", "fused512", 512, gg_context_sm_count(ctx)));
  best = best_of(best, frame_row(r, mod, "b512", "roundtrip512", 512, gg_context_sm_count(ctx)));
  auto_row(r, mod, best);
  auto_threads_row(r, mod, best);
  gg_array_free(r->gx);
  gg_array_free(r->gX);
  gg_array_free(r->gH);
  gg_array_free(r->ge_mapped);
  gg_array_free(r->ge);
}

int main(int argc, char **argv)
{
  gg_context *ctx = mathdx_bench_start(argc, argv, &iters);
  make_inputs();
  double t0 = bench_now_us();
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_fft_chain_bench, &mod));
  printf("fft_chain_bench on %s: %d iterations per row; module loaded in %.1f s (NVRTC or "
         "the cache)\n", gg_context_device_name(ctx), iters, (bench_now_us() - t0) / 1e6);
  printf("us per chain: %d x %d-point c2c f32 FFT -> filter -> inverse FFT -> energy (f64), "
         "e in host memory; every way checked against a CPU chain in f64\n", NB, N);
  printf("%-40s %9s %9s %9s %9s %9s   %s\n", "row", "mean", "p50", "p99", "p99.9", "max",
         "cuFFT graph p50 / p50, cuFFT launch p50 / p50");
  chain_run r = {0};
  CHECKC(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
  CHECK_OK(gg_stream_open(ctx, &r.gstream));
  bench_stats_init(&st, (size_t)iters);
  peer_rows(&r);
  gpugen_rows(&r, ctx, mod);
  bench_stats_free(&st);
  gg_stream_free(r.gstream);
  cudaStreamDestroy(r.stream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
