/*
 * reduce_variants.cu - hand-written variants of the warp_shuffle reduce's
 * phase 1 (templates/common/reduce_head.cuh), timed beside CUB in one
 * process, to find a template change worth making (the auto reduce
 * at 256M was 0.99x CUB).  Not part of the CMake build; on a GPU machine:
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 bench/reduce_variants.cu -o rv && ./rv
 *
 * Every variant is the template's kernel - 16-byte loads striding by the
 * whole grid, UNROLL loads in flight, warp shuffles, one partial per block,
 * the last block to take the ticket combines them in block order - with
 * one thing changed: UNROLL, the load instruction (plain, __ldg, __ldcs,
 * ld.global.nc.L1::no_allocate with or without an L2 256-byte prefetch),
 * block size, grid (blocks per SM), or "even share" (each block reads one
 * contiguous chunk, as CUB does, instead of striding by the grid).
 * Method as reduce_bench: 3 warm-ups, 5 batches, median batch mean.
 */
#include <cub/cub.cuh>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { \
  fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

/* 16-byte load of x[i] (x: 16-byte vectors seen as uint4) */
template <int LOAD> __device__ __forceinline__ uint4 load16(const uint4 *p)
{
  uint4 r;
  if (LOAD == 0) r = *p;
  else if (LOAD == 1) r = __ldg(p);
  else if (LOAD == 2) r = __ldcs(p);
  else if (LOAD == 3)
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  else
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  return r;
}

template <class T> __device__ __forceinline__ T fold16(T a, uint4 r)
{
  T e[16 / sizeof(T)];
  memcpy(e, &r, 16);
#pragma unroll
  for (int k = 0; k < (int)(16 / sizeof(T)); ++k) a += e[k];
  return a;
}

template <class T> __device__ __forceinline__ T warp_sum(T a)
{
  for (int d = 16; d > 0; d >>= 1) a += __shfl_down_sync(0xffffffffu, a, d);
  return a;
}

/* x is 16-byte aligned (cudaMalloc) and n a multiple of 16/sizeof(T) here:
 * the head/tail scalar reads of the template are left out. */
template <class T, int UNROLL, int LOAD, int EVEN>
__global__ void red(const T *x, long long n, T *out, T *part, unsigned *ticket)
{
  const long long nvec = n / (16 / sizeof(T));
  const uint4 *v = (const uint4 *)x;
  T a = 0;
  if (!EVEN) {
    const long long nthr = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (UNROLL - 1) * nthr < nvec; i += UNROLL * nthr) {
      uint4 r[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) r[u] = load16<LOAD>(v + i + u * nthr);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) a = fold16(a, r[u]);
    }
    for (; i < nvec; i += nthr) a = fold16(a, load16<LOAD>(v + i));
  } else {
    /* even share: block b reads [b*chunk, (b+1)*chunk), chunk a multiple of
     * one block-wide unrolled step */
    const long long step = (long long)UNROLL * blockDim.x;
    long long chunk = (nvec + gridDim.x - 1) / gridDim.x;
    chunk = (chunk + step - 1) / step * step;
    long long beg = blockIdx.x * chunk, end = beg + chunk < nvec ? beg + chunk : nvec;
    long long i = beg + threadIdx.x;
    for (; i + (UNROLL - 1) * (long long)blockDim.x < end; i += step) {
      uint4 r[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) r[u] = load16<LOAD>(v + i + u * blockDim.x);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) a = fold16(a, r[u]);
    }
    for (; i < end; i += blockDim.x) a = fold16(a, load16<LOAD>(v + i));
  }
  __shared__ T ws[32];
  __shared__ unsigned last;
  a = warp_sum(a);
  if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = a;
  __syncthreads();
  if (threadIdx.x < 32) {
    a = threadIdx.x < blockDim.x / 32 ? ws[threadIdx.x] : T(0);
    a = warp_sum(a);
  }
  if (threadIdx.x == 0) {
    part[blockIdx.x] = a;
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  a = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) a += *(volatile T *)&part[b];
  a = warp_sum(a);
  __syncthreads();
  if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = a;
  __syncthreads();
  if (threadIdx.x == 0) {
    T s = 0;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) s += ws[w];
    *out = s;
    *ticket = 0;
  }
}

template <class T> __global__ void fill(T *x, long long n)
{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    x[i] = (T)((i * 2654435761ull) % 7) - 3;
}

struct variant {
  const char *name;
  int block, per_sm; /* per_sm 0: every co-resident block */
  int unroll, load, even;
};
static const variant variants[] = {
  { "base b256 u4 ld", 256, 0, 4, 0, 0 },
  { "u2", 256, 0, 2, 0, 0 },
  { "u8", 256, 0, 8, 0, 0 },
  { "ldg", 256, 0, 4, 1, 0 },
  { "ldcs", 256, 0, 4, 2, 0 },
  { "nc.noalloc.L2:256B", 256, 0, 4, 3, 0 },
  { "nc.noalloc", 256, 0, 4, 4, 0 },
  { "u8 nc.L2:256B", 256, 0, 8, 3, 0 },
  { "even", 256, 0, 4, 0, 1 },
  { "even nc.L2:256B", 256, 0, 4, 3, 1 },
  { "even u8", 256, 0, 8, 0, 1 },
  { "b512", 512, 0, 4, 0, 0 },
  { "b128 u8", 128, 0, 8, 0, 0 },
  { "g4/SM", 256, 4, 4, 0, 0 },
  { "g4/SM u8", 256, 4, 8, 0, 0 },
  { "g2/SM u8", 256, 2, 8, 0, 0 },
  { "g4/SM u8 even", 256, 4, 8, 0, 1 },
  { "g4/SM u8 nc.L2:256B", 256, 4, 8, 3, 0 },
};
#define NVAR (int)(sizeof variants / sizeof variants[0])

typedef void (*kfn)(const void *, long long, void *, void *, unsigned *);

template <class T, int U, int L, int E> static kfn pick3() { return (kfn)red<T, U, L, E>; }
template <class T, int U, int L> static kfn pick2(int e) { return e ? pick3<T, U, L, 1>() : pick3<T, U, L, 0>(); }
template <class T, int U> static kfn pick1(int l, int e)
{
  switch (l) {
  case 0: return pick2<T, U, 0>(e);
  case 1: return pick2<T, U, 1>(e);
  case 2: return pick2<T, U, 2>(e);
  case 3: return pick2<T, U, 3>(e);
  default: return pick2<T, U, 4>(e);
  }
}
template <class T> static kfn pick(const variant &v)
{
  return v.unroll == 2 ? pick1<T, 2>(v.load, v.even)
       : v.unroll == 8 ? pick1<T, 8>(v.load, v.even) : pick1<T, 4>(v.load, v.even);
}

static cudaEvent_t e0, e1;

template <class F> static double time_it(F f, int reps)
{
  double t[5];
  for (int w = 0; w < 3; w++) f();
  for (int b = 0; b < 5; b++) {
    float ms;
    CK(cudaEventRecord(e0));
    for (int r = 0; r < reps; r++) f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    t[b] = ms * 1000.0 / reps;
  }
  for (int a = 0; a < 5; a++)
    for (int b = a + 1; b < 5; b++)
      if (t[b] < t[a]) { double x = t[a]; t[a] = t[b]; t[b] = x; }
  return t[2];
}

template <class T> static void run_type(const char *tn, void *buf, int sms)
{
  static const int logs[] = { 20, 24, 28 };
  T *out, *part;
  unsigned *ticket;
  CK(cudaMalloc(&out, 64));
  CK(cudaMalloc(&part, 65536 * sizeof(T)));
  CK(cudaMalloc(&ticket, 4));
  CK(cudaMemset(ticket, 0, 4));
  for (int li = 0; li < 3; li++) {
    long long n = 1LL << logs[li];
    T *x = (T *)buf;
    fill<T><<<1024, 256>>>(x, n);
    double bytes = (double)n * sizeof(T);
    int reps = bytes > (64 << 20) ? 10 : bytes > (1 << 20) ? 50 : 200;
    size_t tb = 0;
    CK(cub::DeviceReduce::Sum(nullptr, tb, x, out, n));
    void *tmp;
    CK(cudaMalloc(&tmp, tb));
    double cus = time_it([&] { cub::DeviceReduce::Sum(tmp, tb, x, out, n); }, reps);
    CK(cudaGetLastError());
    T ref;
    CK(cudaMemcpy(&ref, out, sizeof(T), cudaMemcpyDeviceToHost));
    double cub_gbs = bytes / (cus * 1e3);
    printf("| %-22s | %s | %10lld | %8.2f | %8.1f | 1.000 | ref  |\n", "CUB", tn, n, cus, cub_gbs);
    for (int v = 0; v < NVAR; v++) {
      kfn k = pick<T>(variants[v]);
      int per = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, variants[v].block, 0));
      int grid = (variants[v].per_sm && variants[v].per_sm < per ? variants[v].per_sm : per) * sms;
      int blk = variants[v].block;
      double us = time_it([&] { k<<<grid, blk>>>(x, n, out, part, ticket); }, reps);
      CK(cudaGetLastError());
      T got;
      CK(cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost));
      int ok = sizeof(T) == 4 && (T)1 / 2 == 0 ? got == ref : fabs((double)got - (double)ref) <= 1e-6 * 3 * n;
      double gbs = bytes / (us * 1e3);
      printf("| %-22s | %s | %10lld | %8.2f | %8.1f | %5.3f | %-4s | grid %d\n", variants[v].name, tn,
             n, us, gbs, gbs / cub_gbs, ok ? "ok" : "DIFF", grid);
    }
    CK(cudaFree(tmp));
  }
  CK(cudaFree(out));
  CK(cudaFree(part));
  CK(cudaFree(ticket));
}

int main()
{
  int sms;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  sms = p.multiProcessorCount;
  printf("## reduce variants vs CUB %d.%d.%d on %s (%d SMs)\n\n", CUB_MAJOR_VERSION,
         CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, p.name, sms);
  printf("| variant                | type |          n |  time us |     GB/s | /CUB  | check |\n");
  printf("|------------------------|------|------------|----------|----------|-------|-------|\n");
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  void *buf;
  CK(cudaMalloc(&buf, (size_t)8 << 28));
  run_type<float>("f32 ", buf, sms);
  run_type<int>("i32 ", buf, sms);
  run_type<double>("f64 ", buf, sms);
  return 0;
}
