// poll_probe.cu - a hand-written probe, not a benchmark (CMake does not
// build it): does polling the host-mapped slot with several warps shorten
// the handshake?  One warp has one PCIe read in flight; the host's store
// is seen by the first read that reaches host memory after it, on average
// half a round trip later, plus the trip back.  W warps started L/W apart
// (L: one read's round trip, measured first) should cut the first part to
// about L/(2W).  They do not: every variant with more than two polling
// warps is slower (bench/RESULTS.md, 2026-11-27; raw:
// results/poll-warps-h100-2026-11-27.txt), which is why the persistent
// kernel polls with one warp.  On a GPU machine:
//   nvcc -O2 -arch=native -o /tmp/poll_probe bench/poll_probe.cu
//   /tmp/poll_probe [frames per round, 10000] [rounds, 3]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
typedef unsigned long long u64;

__device__ __forceinline__ u64 ld_acq_sys(const u64 *p)
{
  u64 v;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ u64 ld_relaxed_sys(const u64 *p)
{
  u64 v;
  asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_rel_sys(u64 *p, u64 v)
{
  asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ u64 gtime()
{
  u64 t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void latency(const u64 *slot, u64 *out)
{
  u64 s = 0;
  const u64 t0 = gtime();
  for (int i = 0; i < 200; ++i) s += ld_acq_sys(slot + (s >> 62)); /* dependent: one in flight */
  out[0] = (gtime() - t0) / 200;
  out[1] = s;
}

// mode 0: poller warps ack themselves (winner acks); mode 1: a worker
// warp (the last) waits on shared memory and acks.
__global__ void poll(u64 *slot, u64 *done, int frames, unsigned stagger_ns, int mode, int relaxed)
{
  __shared__ volatile u64 won;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned npoll = mode == 1 ? blockDim.x / 32 - 1 : blockDim.x / 32;
  if (threadIdx.x == 0) won = 0;
  __syncthreads();
  if (warp < npoll) {
    if (stagger_ns) __nanosleep(warp * stagger_ns);
    for (u64 f = 1; f <= (u64)frames; ++f) {
      for (;;) {
        u64 v = 0;
        if (lane == 0) v = relaxed ? ld_relaxed_sys(slot) : ld_acq_sys(slot);
        v = __shfl_sync(0xffffffffu, v, 0);
        if ((v >> 32) == f) {
          bool winner = false;
          if (lane == 0) winner = atomicMax((u64 *)&won, f) < f;
          winner = __shfl_sync(0xffffffffu, winner, 0);
          if (winner && mode == 0 && lane == 0) st_rel_sys(done, f);
          break;
        }
        if (won >= f) break;
      }
    }
  } else if (lane == 0) { /* worker */
    for (u64 f = 1; f <= (u64)frames; ++f) {
      while (won < f) {
      }
      st_rel_sys(done, f);
    }
  }
}

static double pct(std::vector<double> &v, double p)
{
  return v[(size_t)(p * (v.size() - 1))];
}

int main(int argc, char **argv)
{
  int frames = argc > 1 ? atoi(argv[1]) : 10000;
  int rounds = argc > 2 ? atoi(argv[2]) : 3;
  u64 *h;
  if (cudaHostAlloc(&h, 4096, cudaHostAllocMapped) != cudaSuccess) {
    printf("no GPU\n");
    return 77;
  }
  memset(h, 0, 4096);
  volatile u64 *slot = h, *done = h + 32;
  u64 *dslot, *ddone, *dout;
  cudaHostGetDevicePointer(&dslot, h, 0);
  ddone = dslot + 32;
  cudaMalloc(&dout, 16);
  latency<<<1, 1>>>(dslot, dout);
  u64 lat[2];
  cudaMemcpy(lat, dout, 16, cudaMemcpyDeviceToHost);
  unsigned L = (unsigned)lat[0];
  printf("one ld.acquire.sys of host memory, back to back: %u ns\n", L);
  struct V { const char *name; int warps; unsigned stagger; int mode; int relaxed; };
  std::vector<V> vs = {
      {"1 warp", 1, 0, 0, 0},
      {"2 warps, lockstep", 2, 0, 0, 0},
      {"2 warps, stagger L/2", 2, L / 2, 0, 0},
      {"4 warps, stagger L/4", 4, L / 4, 0, 0},
      {"8 warps, stagger L/8", 8, L / 8, 0, 0},
      {"4 warps, stagger L/4, relaxed", 4, L / 4, 0, 1},
      {"4 pollers + worker acks", 5, L / 4, 1, 0},
      {"8 pollers + worker acks", 9, L / 8, 1, 0},
      {"1 poller + worker acks", 2, 0, 1, 0},
  };
  std::vector<std::vector<double>> t(vs.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < vs.size(); ++k) {
      *slot = 0;
      *done = 0;
      poll<<<1, 32 * vs[k].warps>>>(ddone - 32, ddone, frames, vs[k].stagger, vs[k].mode, vs[k].relaxed);
      for (int f = 1; f <= frames; ++f) {
        auto t0 = std::chrono::steady_clock::now();
        __atomic_store_n((u64 *)slot, ((u64)f << 32) | 1u, __ATOMIC_RELEASE);
        while (__atomic_load_n((u64 *)done, __ATOMIC_ACQUIRE) != (u64)f) {
        }
        auto t1 = std::chrono::steady_clock::now();
        if (f > 500) t[k].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; }
    }
  printf("%-34s %8s %8s %8s %8s\n", "variant", "p50", "p90", "p99", "p99.9");
  for (size_t k = 0; k < vs.size(); ++k) {
    std::sort(t[k].begin(), t[k].end());
    printf("%-34s %8.3f %8.3f %8.3f %8.3f\n", vs[k].name, pct(t[k], .5), pct(t[k], .9), pct(t[k], .99),
           pct(t[k], .999));
  }
  return 0;
}
