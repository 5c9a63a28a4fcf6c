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
#include "ticket_reduce.cuh"

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

__device__ double g_partials[kEnergyBlocks];
__device__ unsigned g_ticket;

/* One pass: each thread's share of |X|^2 in f64, then the grid's sum
 * (ticket_reduce.cuh) into *e. */
__global__ void energy(const float4 *__restrict__ X, int n4, double *e)
{
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    const float4 v = X[i];
    s += (double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z + (double)v.w * v.w;
  }
  grid_reduce<kThreads>(s, ReduceSum(), 0.0, g_partials, &g_ticket, e);
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
