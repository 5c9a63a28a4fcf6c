/*
 * cub_ref.cu - CUB's DeviceReduce::Sum and DeviceScan::InclusiveSum behind
 * a C interface, the reference the reduce benchmark compares against.
 * Built with nvcc only where CMake finds the CUDA language (bench/reduce.cmake).
 * Pointers are device pointers of the runtime's (primary) context; the
 * stream is the runtime's native CUstream.
 */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "cub_ref.h"

namespace {
/* Temporary storage, grown once and reused, so timing sees no cudaMalloc. */
void *g_temp = nullptr;
size_t g_temp_bytes = 0;

int ensure(size_t bytes)
{
  if (bytes <= g_temp_bytes) return 0;
  if (g_temp) cudaFree(g_temp);
  g_temp = nullptr;
  g_temp_bytes = 0;
  if (cudaMalloc(&g_temp, bytes) != cudaSuccess) return -1;
  g_temp_bytes = bytes;
  return 0;
}

template <class T> int reduce_sum(const void *in, void *out, long long n, cudaStream_t s)
{
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, (const T *)in, (T *)out, n, s);
  if (ensure(bytes)) return -1;
  return cub::DeviceReduce::Sum(g_temp, bytes, (const T *)in, (T *)out, n, s) == cudaSuccess ? 0 : -1;
}

template <class T> int scan_sum(const void *in, void *out, long long n, cudaStream_t s)
{
  size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, bytes, (const T *)in, (T *)out, n, s);
  if (ensure(bytes)) return -1;
  return cub::DeviceScan::InclusiveSum(g_temp, bytes, (const T *)in, (T *)out, n, s) == cudaSuccess
             ? 0 : -1;
}
} // namespace

extern "C" int cub_ref_reduce_sum(int dtype, const void *in, void *out, long long n, void *stream)
{
  cudaStream_t s = (cudaStream_t)stream;
  switch (dtype) {
  case CUB_REF_F32: return reduce_sum<float>(in, out, n, s);
  case CUB_REF_I32: return reduce_sum<int>(in, out, n, s);
  case CUB_REF_F64: return reduce_sum<double>(in, out, n, s);
  default: return -1;
  }
}

extern "C" int cub_ref_scan_inclusive_sum(int dtype, const void *in, void *out, long long n,
                                          void *stream)
{
  cudaStream_t s = (cudaStream_t)stream;
  switch (dtype) {
  case CUB_REF_F32: return scan_sum<float>(in, out, n, s);
  case CUB_REF_I32: return scan_sum<int>(in, out, n, s);
  case CUB_REF_F64: return scan_sum<double>(in, out, n, s);
  case CUB_REF_U32: return scan_sum<unsigned>(in, out, n, s);
  case CUB_REF_I64: return scan_sum<long long>(in, out, n, s);
  case CUB_REF_U64: return scan_sum<unsigned long long>(in, out, n, s);
  default: return -1;
  }
}

extern "C" const char *cub_ref_version(void)
{
  static char v[32];
  snprintf(v, sizeof v, "CUB %d.%d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000,
           CUB_VERSION % 100);
  return v;
}
