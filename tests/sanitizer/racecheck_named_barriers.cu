// racecheck_named_barriers.cu - why compute-sanitizer racecheck reports
// hazards on the hybrid frame kernels (thread groups) and not on the
// one_block / many_blocks ones.  Not part of the build; run by hand:
//   nvcc -arch=sm_90 -lineinfo -o rnb racecheck_named_barriers.cu
//   compute-sanitizer --tool racecheck ./rnb      0 hazards
//   compute-sanitizer --tool racecheck ./rnb x    "Race reported" on flag
// Seen on an H100, CUDA 13.0, 2026-11-24.  The kernel below is race-free
// in both runs (flag is written by thread 0 between two __syncthreads and
// read after the second; the answer is right every time), yet racecheck
// reports hazards on flag as soon as one group alone runs named barriers
// (bar.sync 1, 64) while the other waits at __syncthreads - what the last
// pseudo-block of a ticket reduction does in a hybrid persistent kernel.
// Racecheck then pairs the leader's write of a block-level shared word
// (args, command, the frame barrier's flag) with reads across the
// __syncthreads that separates them.
// Group 0 alone runs extra named-barrier exchanges (as the last pseudo-block
// of a ticket reduction does) while group 1 waits at __syncthreads; then a
// block-wide flag written by thread 0 between two __syncthreads.  Race-free.
#include <cstdio>
__global__ void k(int *out, int extra)
{
  __shared__ int s[128];
  __shared__ int flag;
  const unsigned g = threadIdx.x / 64, t = threadIdx.x % 64;
  for (int it = 0; it < 4; ++it) {
    if (g == 0)
      for (int e = 0; e < extra; ++e) {
        s[t] = t + e;
        asm volatile("bar.sync %0, %1;" ::"r"(1), "r"(64) : "memory");
        out[threadIdx.x] += s[63 - t];
        asm volatile("bar.sync %0, %1;" ::"r"(1), "r"(64) : "memory");
      }
    __syncthreads();
    if (threadIdx.x == 0) flag = it;
    __syncthreads();
    out[threadIdx.x] += flag;
  }
}
int main(int argc, char **argv)
{
  int *o;
  cudaMalloc(&o, 128 * 4);
  cudaMemset(o, 0, 128 * 4);
  k<<<1, 128>>>(o, argc > 1 ? 3 : 0);
  int h[128];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  printf("extra=%d out[127] = %d (want 6)\n", argc > 1, h[127]);
  return 0;
}
