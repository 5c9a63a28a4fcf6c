/*
 * mathdx_bench.c - one small GEMM (C = A B, 64^3, 128^3 and 256x256x128,
 * f32 and f16 inputs with f32 accumulation, and complex c32 C = A^H B;
 * bench/mathdx_bench.lua through gpugen at build time; the plan tiles C
 * over 16 or 64 blocks) per iteration,
 * side by side in one process:
 *   cuBLAS launch + sync   cublasGemmEx on a stream, cudaStreamSynchronize
 *   cuBLAS graph           the same call captured once, cudaGraphLaunch + sync
 *   gpugen launch + sync   the gemm kernel (cuBLASDx) by gg_launch + gg_stream_sync
 *   gpugen frame (1 block) the gemm as a command of a one-block persistent
 *                          kernel (it strides over the tiles):
 *                          gg_session_start_packed + gg_session_wait
 *   gpugen frame (N blocks) the same on a persistent kernel of as many
 *                          blocks as tiles: one tile per block
 * c64 / c128 are complex (c32) C = A^H B, the beamformer's product, against
 * cublasCgemm with CUBLAS_OP_C (launched, and captured in a graph).
 * s128_16 / s128_32 (h128_...) are 128^3 on larger tiles than the plan's
 * (32 x 32: 16 blocks; 32 x 16: 32 blocks), with persistent kernels of as
 * many blocks, to compare the plan's choice (16 x 16: 64 blocks) against.
 * And a batch of 64 in-place c2c f32 FFTs (256, 320 and 1024 points) against
 * cuFFT (cufftExecC2C launched, and captured in a graph), by gpugen launch and
 * frame at several thread counts per FFT (kernel f<N>_<threads>, its frame on
 * a many_blocks persistent kernel of blocks of that size).
 * And per product and FFT size an auto row: the frame on gg_session_tune's
 * choice among the persistent kernels holding its gemms (the plan's tile
 * and the hand-written ones, as alternatives) or its FFT thread counts, at
 * their candidate block counts; with its ratio to the best hand-picked
 * frame (goal >= 0.95x).
 * Prints mean, p50, p99, p99.9, max (us) and, per row, the best cuBLAS /
 * cuFFT p50 (launch or graph) divided by the row's p50 (> 1: faster).
 * Built only where CMake finds cuBLAS and cuFFT (bench/mathdx.cmake).
 * Usage: mathdx_bench [iterations per row, default 5000]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cufft.h>
#include <cuda_runtime_api.h>

#include "gg.h"
#include "gg_session.h"
#include "mathdx_bench.h"
#include "mathdx_common.h"
#include "stats.h"
#include "../tests/gg_check.h" /* CHECK_OK: the tests' assertion on a libgg call */

#define WAIT_NS 2000000000ll

static int iters = 5000;

/* A's and B's type (C: f32, or c32 for T_C32); T_TF32: f32 views, the
 * products on tensor cores as TF32 (cuBLAS: CUBLAS_COMPUTE_32F_FAST_TF32) */
enum { T_F32, T_F16, T_C32, T_TF32 };
typedef struct shape {
  const char *kernel;
  int m, n, k, type;
  const char *one, *many; /* persistent kernels: one block (or NULL: no row), as many blocks
                             as tiles */
} shape;
static const shape shapes[] = {
  {"s64", 64, 64, 64, T_F32, "p1", "p16"},    {"s128", 128, 128, 128, T_F32, "p1", "p64"},
  {"h64", 64, 64, 64, T_F16, "p1", "p16"},    {"h128", 128, 128, 128, T_F16, "p1", "r32"},
  {"s128_16", 128, 128, 128, T_F32, "r1", "r16"}, {"s128_32", 128, 128, 128, T_F32, "r1", "r32"},
  {"h128_16", 128, 128, 128, T_F16, "r1", "r16"}, {"h128_32", 128, 128, 128, T_F16, "r1", "r32"},
  {"s256", 256, 256, 128, T_F32, "q1", "q128s"}, {"h256", 256, 256, 128, T_F16, "q1", "q64"},
  {"c64", 64, 64, 64, T_C32, "c1", "c16"},    {"c128", 128, 128, 128, T_C32, "c1", "c64b"},
  {"t64", 64, 64, 64, T_TF32, "t1", "t16"},   {"t128", 128, 128, 128, T_TF32, "t1", "t64b"},
  {"t256", 256, 256, 128, T_TF32, "t1", "t64q"},
  /* smaller tiles than the plan's, on 128 blocks only */
  {"s256_a", 256, 256, 128, T_F32, NULL, "q128"}, {"s256_b", 256, 256, 128, T_F32, NULL, "q128"},
  {"h256_a", 256, 256, 128, T_F16, NULL, "q128"}, {"t256_a", 256, 256, 128, T_TF32, NULL, "q128"},
  /* split_k: K over 4 and 8 blocks a tile (64 x 64 x 1024), 2 (h256s) */
  {"sk", 64, 64, 1024, T_F32, "k1", "k16"},       {"sk4", 64, 64, 1024, T_F32, NULL, "k64"},
  {"sk8", 64, 64, 1024, T_F32, NULL, "k128"},     {"h256s", 256, 256, 128, T_F16, NULL, "q128h"},
};
/* bytes of an element of A and B, of C */
static size_t in_bytes(const shape *sh)
{
  return sh->type == T_F16 ? 2 : sh->type == T_C32 ? 8 : 4;
}
static size_t out_bytes(const shape *sh) { return sh->type == T_C32 ? 8 : 4; }

static double p50_row(const char *label, bench_stats *st, double peer)
{
  bench_summary r;
  bench_stats_summarize(st, &r);
  printf("%-36s %9.2f %9.2f %9.2f %9.2f %9.2f", label, r.mean, r.p50, r.p99, r.p999, r.max);
  if (peer > 0) printf("   %5.2fx", peer / r.p50);
  printf("\n");
  fflush(stdout);
  return r.p50;
}

/* cuBLAS: the same product on its own buffers (column-major C^T = B^T A^T
 * is the row-major C = A B; the timing does not depend on it).  Complex:
 * C^T = B^T conj(A) with A stored K x M row-major, i.e. the column-major
 * M x K matrix taken with CUBLAS_OP_C (lda M): cgemm. */
static void cublas_rows(const shape *sh, cublasHandle_t h, cudaStream_t stream, bench_stats *st,
                        double *best)
{
  const int m = sh->m, n = sh->n, k = sh->k;
  size_t es = in_bytes(sh);
  void *a, *b, *c;
  CHECKC(cudaMalloc(&a, (size_t)m * k * es));
  CHECKC(cudaMalloc(&b, (size_t)k * n * es));
  CHECKC(cudaMalloc(&c, (size_t)m * n * out_bytes(sh)));
  CHECKC(cudaMemset(a, 0, (size_t)m * k * es));
  CHECKC(cudaMemset(b, 0, (size_t)k * n * es));
  const float one = 1, zero = 0;
  const cuComplex cone = {1, 0}, czero = {0, 0};
  cudaDataType tin = sh->type == T_F16 ? CUDA_R_16F : CUDA_R_32F;
  /* column-major C^T (n x m) = B^T (n x k) A^T (k x m) */
#define GEMM()                                                                                \
  (sh->type == T_C32                                                                          \
       ? cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, n, m, k, &cone, (const cuComplex *)b, n,   \
                     (const cuComplex *)a, m, &czero, (cuComplex *)c, n)                      \
       : cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, tin, n, a, tin, k, &zero, \
                      c, CUDA_R_32F, n,                                                       \
                      sh->type == T_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,  \
                      CUBLAS_GEMM_DEFAULT))
  CHECKC(cublasSetStream(h, stream));
  for (int i = 0; i < 100; i++) CHECKC(GEMM());
  CHECKC(cudaStreamSynchronize(stream));
  char label[96];
  bench_stats_reset(st);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    CHECKC(GEMM());
    CHECKC(cudaStreamSynchronize(stream));
    bench_stats_add(st, bench_now_us() - t0);
  }
  snprintf(label, sizeof label, "%s cuBLAS launch + sync", sh->kernel);
  double launch = p50_row(label, st, 0);

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECKC(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  CHECKC(GEMM());
  CHECKC(cudaStreamEndCapture(stream, &graph));
  CHECKC(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 100; i++) CHECKC(cudaGraphLaunch(exec, stream));
  CHECKC(cudaStreamSynchronize(stream));
  bench_stats_reset(st);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    CHECKC(cudaGraphLaunch(exec, stream));
    CHECKC(cudaStreamSynchronize(stream));
    bench_stats_add(st, bench_now_us() - t0);
  }
  snprintf(label, sizeof label, "%s cuBLAS graph", sh->kernel);
  double graphed = p50_row(label, st, 0);
#undef GEMM
  *best = launch < graphed ? launch : graphed;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}

/* Gemm `command` (a kernel of the shape's size) as the command of
 * persistent kernel `persistent` on `blocks` (0: as declared), one frame
 * per iteration; its p50.  what: NULL, or the row's label after the
 * command (the auto row's). */
static double frame_row(const char *command, gg_module *mod, const char *persistent, int blocks,
                        const gg_arg *args, bench_stats *st, double best, const char *what)
{
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, command, &k));
  unsigned char packed[256];
  CHECK_OK(gg_pack_args(gg_kernel_describe(k), args, 4, packed, sizeof packed));
  gg_session *s;
  gg_session_options o = {0};
  o.blocks = blocks;
  CHECK_OK(gg_session_open(mod, persistent, &o, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, command, &cmd));
  size_t size = gg_kernel_describe(k)->args_size;
  for (int i = 0; i < 100; i++) CHECK_OK(gg_session_run(s, cmd, args, 4, WAIT_NS));
  bench_stats_reset(st);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    CHECK_OK(gg_session_start_packed(s, cmd, packed, size, NULL));
    CHECK_OK(gg_session_wait(s, WAIT_NS));
    bench_stats_add(st, bench_now_us() - t0);
  }
  char label[96];
  int nb = gg_session_blocks(s);
  if (what)
    snprintf(label, sizeof label, "%s", what);
  else
    snprintf(label, sizeof label, "%s gpugen frame (%d block%s)", command, nb, nb == 1 ? "" : "s");
  double p50 = p50_row(label, st, best);
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
  return p50;
}

/* A, B and C of a shape, zero-filled, and the gemm's arguments. */
static void gemm_arrays(const shape *sh, gg_context *ctx, gg_array **abc, gg_arg *args)
{
  size_t es = in_bytes(sh);
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)sh->m * sh->k * es, &abc[0]));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)sh->k * sh->n * es, &abc[1]));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)sh->m * sh->n * out_bytes(sh), &abc[2]));
  CHECK_OK(gg_fill_zero(abc[0], NULL));
  CHECK_OK(gg_fill_zero(abc[1], NULL));
  for (int i = 0; i < 3; i++) args[i] = gg_arg_array(abc[i]);
  args[3] = gg_arg_i64(1);
}

/* gpugen's rows of a shape; the best frame p50. */
static double gpugen_rows(const shape *sh, gg_context *ctx, gg_module *mod, gg_stream *stream,
                          bench_stats *st, double best)
{
  gg_array *abc[3];
  gg_arg args[4];
  gemm_arrays(sh, ctx, abc, args);
  gg_kernel *k;
  CHECK_OK(gg_kernel_get(mod, sh->kernel, &k));
  char label[96];
  for (int i = 0; i < 100; i++) CHECK_OK(gg_launch(k, stream, args, 4));
  CHECK_OK(gg_stream_sync(stream));
  bench_stats_reset(st);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    CHECK_OK(gg_launch(k, stream, args, 4));
    CHECK_OK(gg_stream_sync(stream));
    bench_stats_add(st, bench_now_us() - t0);
  }
  snprintf(label, sizeof label, "%s gpugen launch + sync", sh->kernel);
  p50_row(label, st, best);

  double f = sh->one ? frame_row(sh->kernel, mod, sh->one, 0, args, st, best, NULL) : 0;
  double g = frame_row(sh->kernel, mod, sh->many, 0, args, st, best, NULL);
  f = f > 0 && f < g ? f : g;
  for (int i = 0; i < 3; i++) gg_array_free(abc[i]);
  return f;
}

#define NSHAPES (sizeof shapes / sizeof *shapes)
static int same_product(const shape *a, const shape *b)
{
  return a->m == b->m && a->n == b->n && a->k == b->k && a->type == b->type;
}

/* The auto row of each product (the shapes of one size and type: the
 * plan's tile and the hand-written ones): gg_session_tune over every
 * persistent kernel holding one of their gemms, at its candidate block
 * counts, the other tiles as alternatives; then its frame timed like the
 * hand-picked rows.  Prints auto against the best hand-picked frame (goal
 * >= 0.95x) and against cuBLAS; the worst ratio to the best hand row. */
static double auto_gemm_rows(gg_context *ctx, gg_module *mod, const double *hand,
                             const double *peer, bench_stats *st)
{
  double worst = 0;
  for (size_t i = 0; i < NSHAPES; i++) {
    const shape *sh = &shapes[i];
    const char *alt[NSHAPES + 1];
    int na = 0, first = 1;
    double best_hand = 0;
    for (size_t j = 0; j < NSHAPES; j++) {
      if (!same_product(sh, &shapes[j])) continue;
      if (j < i) first = 0;
      if (j != i) alt[na++] = shapes[j].kernel;
      if (hand[j] > 0 && (best_hand == 0 || hand[j] < best_hand)) best_hand = hand[j];
    }
    if (!first) continue;
    alt[na] = NULL;
    gg_array *abc[3];
    gg_arg args[4];
    gemm_arrays(sh, ctx, abc, args);
    gg_tune_options o = {.alternatives = na ? alt : NULL};
    gg_tuned t;
    CHECK_OK(gg_session_tune(mod, sh->kernel, args, 4, &o, &t));
    char what[128];
    snprintf(what, sizeof what, "%s auto (%s %s, %d blocks)", sh->kernel, t.kernel, t.command,
             t.blocks);
    double a = frame_row(t.command, mod, t.kernel, t.blocks, args, st, peer[i], what);
    printf("  tuned from %d candidates in %.0f ms (%s); best hand-picked frame %.2f: auto "
           "%.3fx it\n", t.nrows, t.tune_ms, t.note, best_hand, best_hand / a);
    if (worst == 0 || best_hand / a < worst) worst = best_hand / a;
    for (int k = 0; k < 3; k++) gg_array_free(abc[k]);
  }
  return worst;
}

/* ---- FFTs: one timed call of each way, over one struct ---- */
#define FFT_BATCH 64
typedef struct fft_run {
  int n;
  cufftHandle plan;
  cudaStream_t stream;
  cudaGraphExec_t exec;
  void *buf;
  gg_kernel *k;
  gg_stream *gstream;
  gg_arg args[2];
  gg_session *s;
  int cmd;
  unsigned char packed[64];
  size_t size;
} fft_run;

static void cufft_launch(fft_run *r)
{
  CHECKC(cufftExecC2C(r->plan, r->buf, r->buf, CUFFT_FORWARD));
  CHECKC(cudaStreamSynchronize(r->stream));
}
static void cufft_graph(fft_run *r)
{
  CHECKC(cudaGraphLaunch(r->exec, r->stream));
  CHECKC(cudaStreamSynchronize(r->stream));
}
static void gpugen_launch(fft_run *r)
{
  CHECK_OK(gg_launch(r->k, r->gstream, r->args, 2));
  CHECK_OK(gg_stream_sync(r->gstream));
}
static void gpugen_frame(fft_run *r)
{
  CHECK_OK(gg_session_start_packed(r->s, r->cmd, r->packed, r->size, NULL));
  CHECK_OK(gg_session_wait(r->s, WAIT_NS));
}

/* 100 warm-up calls, then iters timed ones: one table row. */
static double fft_row(const char *kernel, const char *way, void (*step)(fft_run *), fft_run *r,
                      bench_stats *st, double peer)
{
  char label[96];
  for (int i = 0; i < 100; i++) step(r);
  bench_stats_reset(st);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    step(r);
    bench_stats_add(st, bench_now_us() - t0);
  }
  snprintf(label, sizeof label, "%s x%d %s", kernel, FFT_BATCH, way);
  return p50_row(label, st, peer);
}

/* cuFFT's two rows for a size: launch + sync, and its graph; the best p50. */
static double cufft_rows(const char *size, fft_run *r, bench_stats *st)
{
  CHECKC(cufftPlan1d(&r->plan, r->n, CUFFT_C2C, FFT_BATCH));
  CHECKC(cufftSetStream(r->plan, r->stream));
  double launch = fft_row(size, "cuFFT launch + sync", cufft_launch, r, st, 0);
  cudaGraph_t graph;
  CHECKC(cudaStreamBeginCapture(r->stream, cudaStreamCaptureModeThreadLocal));
  CHECKC(cufftExecC2C(r->plan, r->buf, r->buf, CUFFT_FORWARD));
  CHECKC(cudaStreamEndCapture(r->stream, &graph));
  CHECKC(cudaGraphInstantiate(&r->exec, graph, 0));
  CHECKC(cudaGraphDestroy(graph));
  double graphed = fft_row(size, "cuFFT graph", cufft_graph, r, st, 0);
  return launch < graphed ? launch : graphed;
}

/* gpugen's rows for kernel f<N>_<threads>: launch + sync, then a frame on
 * its own persistent kernel p<kernel>, with the blocks the module says (as
 * many as co-reside: most idle) and with one block per batch item. */
static double gpugen_fft_rows(const char *kernel, fft_run *r, gg_module *mod, bench_stats *st,
                              double best)
{
  double fastest = 0;
  char pers[32], way[64];
  snprintf(pers, sizeof pers, "p%s", kernel);
  CHECK_OK(gg_kernel_get(mod, kernel, &r->k));
  fft_row(kernel, "gpugen launch + sync", gpugen_launch, r, st, best);
  CHECK_OK(gg_pack_args(gg_kernel_describe(r->k), r->args, 2, r->packed, sizeof r->packed));
  r->size = gg_kernel_describe(r->k)->args_size;
  for (int one_each = 0; one_each < 2; one_each++) {
    gg_session_options opt = {.blocks = one_each ? FFT_BATCH : 0};
    CHECK_OK(gg_session_open(mod, pers, &opt, &r->s));
    CHECK_OK(gg_session_command(r->s, kernel, &r->cmd));
    snprintf(way, sizeof way, "gpugen frame (%d blocks)", gg_session_blocks(r->s));
    double f = fft_row(kernel, way, gpugen_frame, r, st, best);
    fastest = fastest == 0 || f < fastest ? f : fastest;
    CHECK_OK(gg_session_terminate(r->s));
    gg_session_free(r->s);
  }
  return fastest;
}

/* The auto row of one FFT size: gg_session_tune over its kernels' thread
 * counts (alternatives) and block counts, then the choice's frame timed
 * like the hand-picked rows; its ratio to the best of them. */
static double auto_fft_row(int n, const char *const *names, int nnames, fft_run *r,
                           gg_module *mod, bench_stats *st, double best, double best_hand)
{
  gg_tune_options o = {.alternatives = nnames > 1 ? names + 1 : NULL};
  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, names[0], r->args, 2, &o, &t));
  CHECK_OK(gg_kernel_get(mod, t.command, &r->k));
  CHECK_OK(gg_pack_args(gg_kernel_describe(r->k), r->args, 2, r->packed, sizeof r->packed));
  r->size = gg_kernel_describe(r->k)->args_size;
  gg_session_options opt = {.blocks = t.blocks};
  CHECK_OK(gg_session_open(mod, t.kernel, &opt, &r->s));
  CHECK_OK(gg_session_command(r->s, t.command, &r->cmd));
  char name[32], way[96];
  snprintf(name, sizeof name, "f%d", n);
  snprintf(way, sizeof way, "auto (%s, %d blocks)", t.command, t.blocks);
  double a = fft_row(name, way, gpugen_frame, r, st, best);
  CHECK_OK(gg_session_terminate(r->s));
  gg_session_free(r->s);
  printf("  tuned from %d candidates in %.0f ms (%s); best hand-picked frame %.2f: auto %.3fx "
         "it\n", t.nrows, t.tune_ms, t.note, best_hand, best_hand / a);
  return best_hand / a;
}

/* Every row of one FFT size: cuFFT, then gpugen at each thread count. */
static void fft_rows(int n, const int *threads, int nthreads, gg_context *ctx, gg_module *mod,
                     gg_stream *gstream, cudaStream_t stream, bench_stats *st, double *worst)
{
  fft_run r = {.n = n, .stream = stream, .gstream = gstream};
  const size_t bytes = (size_t)FFT_BATCH * n * 8;
  char name[32];
  CHECKC(cudaMalloc(&r.buf, bytes));
  CHECKC(cudaMemset(r.buf, 0, bytes));
  snprintf(name, sizeof name, "f%d", n);
  const double best = cufft_rows(name, &r, st);

  gg_array *x;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &x));
  CHECK_OK(gg_fill_zero(x, NULL));
  r.args[0] = gg_arg_array(x);
  r.args[1] = gg_arg_i64(FFT_BATCH);
  char names[8][32];
  const char *list[9];
  double best_hand = 0;
  for (int i = 0; i < nthreads && i < 8; i++) {
    snprintf(names[i], sizeof names[i], "f%d_%d", n, threads[i]);
    list[i] = names[i];
    double f = gpugen_fft_rows(names[i], &r, mod, st, best);
    best_hand = best_hand == 0 || f < best_hand ? f : best_hand;
  }
  list[nthreads < 8 ? nthreads : 8] = NULL;
  double ratio = auto_fft_row(n, list, nthreads < 8 ? nthreads : 8, &r, mod, st, best, best_hand);
  if (*worst == 0 || ratio < *worst) *worst = ratio;
  gg_array_free(x);
  cudaGraphExecDestroy(r.exec);
  cufftDestroy(r.plan);
  cudaFree(r.buf);
}

int main(int argc, char **argv)
{
  gg_context *ctx = mathdx_bench_start(argc, argv, &iters);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_mathdx_bench, &mod));
  gg_stream *gstream;
  CHECK_OK(gg_stream_open(ctx, &gstream));
  cudaStream_t stream;
  CHECKC(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t h;
  CHECKC(cublasCreate(&h));
  bench_stats st;
  bench_stats_init(&st, (size_t)iters);
  printf("mathdx_bench on %s: %d iterations per row; us per GEMM (C = A B, complex c64 / c128 "
         "C = A^H B, batch 1)\n",
         gg_context_device_name(ctx), iters);
  printf("%-36s %9s %9s %9s %9s %9s   %s\n", "row", "mean", "p50", "p99", "p99.9", "max",
         "best cuBLAS p50 / p50");
  double hand[NSHAPES], peer[NSHAPES];
  for (size_t i = 0; i < NSHAPES; i++) {
    cublas_rows(&shapes[i], h, stream, &st, &peer[i]);
    hand[i] = gpugen_rows(&shapes[i], ctx, mod, gstream, &st, peer[i]);
  }
  printf("\nauto: gg_session_tune's choice per product among its tiles, persistent kernels and "
         "block counts\n");
  double worst_gemm = auto_gemm_rows(ctx, mod, hand, peer, &st);
  printf("\nus per batch of %d in-place c2c f32 forward FFTs; last column: best cuFFT p50 / p50\n",
         FFT_BATCH);
  /* the thread counts of bench/mathdx_bench.lua's FFT kernels */
  static const int t256[] = {32, 64, 128}, t320[] = {32}, t1024[] = {32, 128, 256, 512};
  double worst_fft = 0;
  fft_rows(256, t256, 3, ctx, mod, gstream, stream, &st, &worst_fft);
  fft_rows(320, t320, 1, ctx, mod, gstream, stream, &st, &worst_fft);
  fft_rows(1024, t1024, 4, ctx, mod, gstream, stream, &st, &worst_fft);
  printf("\nauto / best hand-picked frame, the worst row: GEMM %.3fx, FFT %.3fx (goal >= 0.95)\n",
         worst_gemm, worst_fft);
  bench_stats_free(&st);
  cublasDestroy(h);
  cudaStreamDestroy(stream);
  gg_stream_free(gstream);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
