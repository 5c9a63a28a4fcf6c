/*
 * fft_chain_ref.cu - the peer's own kernels for fft_chain_bench (built with
 * nvcc where CMake finds the CUDA language and cuFFT, bench/mathdx.cmake):
 * the filter X *= H and the energy sum |X|^2, as one would write them next
 * to cuFFT.  Both are memory-bound on 16 x 4096 complex values (512 KiB,
 * in L2 after the FFT), so they are about launch count and latency: one
 * kernel each, vector loads, no atomics on the result and no memset node.
 */
#include <cuda_runtime.h>

#include "fft_chain_ref.h"

namespace {
constexpr int kThreads = 256;
/* The energy's grid: 64 blocks of 256 threads = 16384 threads, two float4
 * (four complex values) each for 16 x 4096: enough loads in flight to
 * stream L2, few partials for the last block to add. */
constexpr int kEnergyBlocks = 64;

__global__ void filter(float2 *__restrict__ X, const float2 *__restrict__ H, int n, int total)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const float2 x = X[i], h = H[i % n];
  X[i] = make_float2(x.x * h.x - x.y * h.y, x.x * h.y + x.y * h.x);
}

__device__ double warp_sum(double v)
{
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/* Block sum of v: warp shuffles, then the first warp adds the warps'. */
__device__ double block_sum(double v)
{
  __shared__ double warps[kThreads / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : 0.0;
  return threadIdx.x < 32 ? warp_sum(v) : 0.0;
}

__device__ double g_partials[kEnergyBlocks];
__device__ unsigned g_ticket;

/* One pass: each block's sum goes to g_partials; the last block (the
 * threadfence-reduction pattern of the CUDA samples) adds them in block
 * order - deterministic - writes *e and resets the ticket for the next
 * call. */
__global__ void energy(const float4 *__restrict__ X, int n4, double *e)
{
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    const float4 v = X[i];
    s += (double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z + (double)v.w * v.w;
  }
  s = block_sum(s);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    g_partials[blockIdx.x] = s;
    __threadfence(); /* the partial is visible before the ticket says so */
    last = atomicAdd(&g_ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence(); /* every block's partial, seen through its ticket */
  double t = 0;
  for (int b = threadIdx.x; b < (int)gridDim.x; b += blockDim.x)
    t += ((volatile double *)g_partials)[b];
  t = block_sum(t);
  if (threadIdx.x == 0) {
    *e = t;
    g_ticket = 0;
  }
}
} // namespace

extern "C" int fft_chain_ref_filter(void *X, const void *H, int n, int nb, void *stream)
{
  const int total = n * nb;
  filter<<<(total + kThreads - 1) / kThreads, kThreads, 0, (cudaStream_t)stream>>>(
      (float2 *)X, (const float2 *)H, n, total);
  return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

extern "C" int fft_chain_ref_energy(const void *X, int n, int nb, double *e, void *stream)
{
  if ((n * nb) % 2) return -1; /* float4 = two complex values */
  energy<<<kEnergyBlocks, kThreads, 0, (cudaStream_t)stream>>>((const float4 *)X, n * nb / 2, e);
  return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
