// phase_probe.cu - a hand-written probe, not a benchmark (CMake does not
// build it): when does a persistent kernel's poll meet the host's post?
// Frames of y = g x, e = sum y^2 over n = 1000 host-mapped floats (work)
// or nothing (empty), one block of 1024, warp 0 reading the slot.
//   mode 1: reads back to back from the frame's end (gpugen before
//           2026-11-27): each launch locks into one phase, so its p50 moves
//           with the host's delay between seeing the ack and posting
//           ("extra host ns", swept across one round trip): a sawtooth.
//   mode 3: reads on a train s_j = t0 + phi + j P on the SM's clock, phi
//           A cycles earlier each frame and B back after a frame caught by
//           a later read than the one before: flat.  The kernels' version
//           (templates/cuda/persistent.cuh, gg_p_phase) also keeps phi at 0
//           while the first read meets the frame, and reads at once after
//           a frame the host posted ahead (GG_MBOX_CMD_AHEAD).
// Results: bench/results/phase-probe-h100-2026-11-27.md.  On a GPU machine:
//   nvcc -O2 -arch=native -o /tmp/phase_probe bench/phase_probe.cu
//   /tmp/phase_probe [frames 3000] [launches 12] [A 16] [B 512] [random host delay ns 0]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <random>
#include <time.h>
#include <cuda_runtime.h>
typedef unsigned long long u64;

__device__ __forceinline__ u64 ld_acq_sys(const u64 *p)
{
  u64 v;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_rel_sys(u64 *p, u64 v)
{
  asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ u64 gtime()
{
  return (u64)clock64(); /* SM cycles: %globaltimer may tick in microseconds */
}

__device__ __forceinline__ u64 t0_sched(u64 t_ref, u64 phi, u64 j, u64 P) { return t_ref + phi + j * P; }
struct stats { unsigned rtt, P, phi, misses; };

__global__ void __launch_bounds__(1024, 1) loop(const u64 *slot, u64 *done, const float *x, float *y, float *e, int n, int frames, int mode, int work, stats *out, unsigned A, unsigned B)
{
  __shared__ u64 cmd;
  __shared__ float part[32];
  const unsigned lane = threadIdx.x % 32;
  u64 t_ref = gtime(), rtt = 2000, phi = 0, r_prev = 0;
  unsigned misses = 0;
  for (u64 f = 1; f <= (u64)frames; ++f) {
    if (threadIdx.x < 32) {
      if (lane == 0) {
        u64 v, j = 0, t_catch = 0;
        const u64 P = rtt + rtt / 8; /* rtt: the fastest read seen */
        for (;; ++j) {
          if (mode == 3) {
            const u64 s = t0_sched(t_ref, phi, j, P);
            while (gtime() < s) {}
          }
          const u64 t = gtime();
          v = ld_acq_sys(slot);
          const u64 t2 = gtime();
          const u64 d = t2 - t;
          if (d < rtt || rtt == 2000) rtt = d; /* the fastest read (2000: none yet) */
          if ((v >> 32) == f) { t_catch = t; break; }
        }
        if (mode == 3) {
          const u64 r = t_catch - t_ref;
          if (f > 1 && r > r_prev + P / 2) { /* caught a poll later than before */
            phi += B;
            ++misses;
          } else { /* circular: the train moves A earlier */
            phi = phi >= A ? phi - A : phi + P - A;
          }
          if (phi >= P) phi -= P;
          r_prev = r;
        }
        cmd = v;
      }
      __syncwarp();
    }
    __syncthreads();
    float g = __uint_as_float((unsigned)cmd);
    float s = 0;
    if (work)
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float v = g * x[i];
        y[i] = v;
        s += v * v;
      }
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) part[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
      s = part[threadIdx.x];
      for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
      if (threadIdx.x == 0) {
        *e = s;
        st_rel_sys(done, f);
        t_ref = gtime();
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = stats{(unsigned)rtt, (unsigned)(rtt + rtt / 8), (unsigned)phi, misses};
}

static double now_ns()
{
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
#define CK(x) do { cudaError_t r_ = (x); if (r_) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(r_)); exit(1); } } while (0)

int main(int argc, char **argv)
{
  int frames = argc > 1 ? atoi(argv[1]) : 3000, launches = argc > 2 ? atoi(argv[2]) : 12, n = 1000;
  unsigned A = argc > 3 ? atoi(argv[3]) : 16, B = argc > 4 ? atoi(argv[4]) : 512;
  int jitter = argc > 5 ? atoi(argv[5]) : 0;
  CK(cudaSetDeviceFlags(cudaDeviceMapHost));
  u64 *slot, *done;
  float *x, *y, *e;
  stats *st_out;
  CK(cudaHostAlloc(&slot, 4096, cudaHostAllocMapped));
  CK(cudaHostAlloc(&done, 4096, cudaHostAllocMapped));
  CK(cudaHostAlloc(&x, 4 * 4096, cudaHostAllocMapped));
  CK(cudaHostAlloc(&y, 4 * 4096, cudaHostAllocMapped));
  CK(cudaHostAlloc(&e, 4096, cudaHostAllocMapped));
  CK(cudaHostAlloc(&st_out, 4096, cudaHostAllocMapped));
  std::vector<float> ref(n);
  std::vector<double> all[4][2];
  std::mt19937 rng(7);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  long bad = 0;
  printf("A %u B %u jitter %d ns\n| extra host ns | mode 1 work | mode 3 work | mode 1 empty | mode 3 empty | rtt cycles, misses (mode 3 work) |\n| --- | --- | --- | --- | --- | --- |\n", A, B, jitter);
  for (int L = 0; L < launches; ++L) {
    double p50[4][2] = {};
    int extra = (L * 97) % 1200;
    stats s3 = {};
    for (int work = 1; work >= 0; --work)
      for (int mode = 1; mode <= 3; mode += 2) {
        std::vector<double> lat;
        slot[0] = 0;
        *(volatile u64 *)done = 0;
        loop<<<1, 1024, 0, st>>>(slot, done, x, y, e, n, frames, mode, work, st_out, A, B);
        CK(cudaGetLastError());
        unsigned s = 12345 + L;
        for (int f = 1; f <= frames; ++f) {
          float g = 1.0f + 0.25f * (f % 7);
          if (work)
            for (int i = 0; i < n; ++i) {
              s ^= s << 13, s ^= s >> 17, s ^= s << 5;
              ref[i] = (float)(s >> 9) / (float)(1u << 23) - 1.0f;
              x[i] = ref[i];
            }
          double tx = now_ns();
          int wait = extra + (jitter ? (int)(rng() % jitter) : 0);
          while (now_ns() - tx < wait) {}
          double t0 = now_ns();
          unsigned gb;
          memcpy(&gb, &g, 4);
          __atomic_store_n(slot, ((u64)f << 32) | gb, __ATOMIC_RELEASE);
          while (__atomic_load_n(done, __ATOMIC_ACQUIRE) != (u64)f) {}
          double t1 = now_ns();
          if (f > 100) lat.push_back(t1 - t0);
          if (work) {
            double es = 0;
            for (int i = 0; i < n; ++i) {
              float yy = g * ref[i];
              if (y[i] != yy) { bad++; break; }
              es += (double)yy * yy;
            }
            if (fabs(es - e[0]) > 1e-4 * es) bad++;
          }
        }
        CK(cudaStreamSynchronize(st));
        if (mode == 3 && work) s3 = *st_out;
        std::sort(lat.begin(), lat.end());
        p50[mode][work] = lat[lat.size() / 2];
        all[mode][work].insert(all[mode][work].end(), lat.begin(), lat.end());
      }
    printf("| %d | %.2f | %.2f | %.2f | %.2f | %u, %u |\n", extra, p50[1][1] / 1e3, p50[3][1] / 1e3, p50[1][0] / 1e3, p50[3][0] / 1e3, s3.rtt, s3.misses);
  }
  for (int m = 1; m <= 3; m += 2)
    for (int w = 1; w >= 0; --w) {
      auto &v = all[m][w];
      std::sort(v.begin(), v.end());
      double mean = 0;
      for (double d : v) mean += d;
      mean /= v.size();
      printf("pooled mode %d %s: mean %.2f p50 %.2f p99 %.2f p99.9 %.2f\n", m, w ? "work" : "empty", mean / 1e3, v[v.size() / 2] / 1e3, v[v.size() * 99 / 100] / 1e3, v[v.size() * 999 / 1000] / 1e3);
    }
  printf("bad %ld\n", bad);
  return 0;
}
