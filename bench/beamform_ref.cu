/*
 * beamform_ref.cu - the peer's own kernel for beamform_bench (built with
 * nvcc where CMake finds the CUDA language, cuFFT and cuBLAS): detect, the
 * power |Y|^2 of every beam and frequency and its maximum, as one would
 * write it next to cufftExecC2C and cublasCgemm.  Y is 4K to 32K complex
 * values (32 to 256 KiB), in L2 after the gemm wrote it: the kernel is
 * about latency, not bandwidth.  So it is one kernel with no memset node
 * and no atomics on the result: float4 loads (two complex values each),
 * one per thread at the largest shape, the power never stored, and the
 * grid's maximum by the one-pass ticket reduction (ticket_reduce.cuh).
 */
#include <cuda_runtime.h>

#include "beamform_ref.h"
#include "ticket_reduce.cuh"

namespace {
constexpr int kThreads = 256;
/* At most 64 blocks of 256 threads: 16384 float4, the largest shape's Y
 * (32 x 1024 complex) in one load per thread, and few partials for the
 * last block to combine; smaller Y take fewer blocks. */
constexpr int kMaxBlocks = 64;

__device__ float g_partials[kMaxBlocks];
__device__ unsigned g_ticket;

/* Launched with programmatic dependent launch, the kernel may start while
 * the gemm still runs: griddepcontrol.wait holds it until the gemm's grid
 * has completed and its writes are visible (without the attribute the
 * wait returns at once). */
__global__ void __launch_bounds__(kThreads) detect(const float4 *__restrict__ Y, int n4, float *pk)
{
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  float m = 0; /* powers are >= 0 */
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    const float4 v = Y[i];
    m = fmaxf(m, fmaxf(v.x * v.x + v.y * v.y, v.z * v.z + v.w * v.w));
  }
  grid_reduce<kThreads>(m, ReduceMax(), 0.0f, g_partials, &g_ticket, pk);
}
} // namespace

extern "C" int beamform_ref_detect(const void *Y, int n, float *pk, int pdl, void *stream)
{
  if (n % 2) return -1; /* float4 = two complex values */
  const int n4 = n / 2, blocks = (n4 + kThreads - 1) / kThreads;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks < kMaxBlocks ? blocks : kMaxBlocks);
  cfg.blockDim = dim3(kThreads);
  cfg.stream = (cudaStream_t)stream;
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, detect, (const float4 *)Y, n4, pk) == cudaSuccess ? 0 : -1;
}
