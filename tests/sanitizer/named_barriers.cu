/*
 * named_barriers.cu - when does compute-sanitizer's racecheck report a
 * hazard on a pseudo-block layout that is not there?  The persistent
 * kernels of layouts thread_groups and hybrid split a block into
 * pseudo-blocks, each synchronized by its own named barrier (`bar.sync
 * 1 + group, threads`, templates/cuda/prelude.cuh gg_sync), and the block
 * as a whole by __syncthreads.  Every mode below is a correct kernel
 * whose output is checked, except "none" (no barrier: a real race, which
 * racecheck must report).  Run by scripts/racecheck-named-barriers.
 *
 * What racecheck says (H100, CUDA 13.0, 2026-11-27): nothing in every
 * correct mode but "ticket", where it reports hundreds of hazards between
 * warp 0's write of the round's arguments and the other group's reads of
 * them after __syncthreads.  What sets "ticket" apart: the group that
 * passes more named barriers than the other is chosen at run time (by a
 * global atomic ticket, as a reduction picks its last block).  The
 * generated kernels did the same in the reduction's finish and in the
 * scan's last round; they now keep every pseudo-block's count of named
 * barriers equal (reduce_finish_ticket.cuh, scan.cuh), and the frames,
 * halo and decide_once tests are racecheck-clean.
 *
 * Modes: "named" - named barrier per group; "block" - __syncthreads;
 * "none"; "mixed" - the persistent loop: warp 0 writes the arguments,
 * __syncthreads, each group works behind its named barrier,
 * __syncthreads; "loop" - flags and neighbour spins between named
 * barriers; "uneven" - one group meets its named barrier once more per
 * round; "calls" - the pieces called (not inlined) as the generated
 * kernel calls them; "drift" - each group meets 0-3 more times, varying
 * by round; "either" - gg_sync's former if/else (two predicated BAR.SYNC);
 * "skew_*" - one party slow (the poll, group 0, group 1); "ticket" - the
 * extra barriers in a group chosen at run time.  Every round loop is a
 * real loop (#pragma unroll 1), as the persistent kernel's.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define GROUP 128
#define ROUNDS 8

/* threads comes from a register (blockDim.x / 2), as gg_sync's g.nthreads */
__device__ __forceinline__ void group_sync(unsigned id, unsigned threads)
{
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/* Mode "either": gg_sync as it was - __syncthreads for a whole block,
 * the named barrier for a pseudo-block, chosen at run time.  The
 * compiler turns the if/else into two predicated BAR.SYNC instructions
 * (`@!P BAR.SYNC 0x0` next to `@P BAR.SYNC R, R`).  The id comes from a
 * kernel argument so that it cannot fold the choice away. */
__device__ __forceinline__ void either_sync(unsigned id, unsigned threads)
{
  if (id == 0)
    __syncthreads();
  else
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
/* A slow party (modes skew_*): ~us microseconds of sleeping. */
__device__ __noinline__ void spin_us(unsigned us)
{
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(500);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < us * 1000ull);
}

/* Mode "loop": the persistent kernel's loop more closely - thread 0 of
 * the block writes a flag and the command, __syncthreads, every thread
 * reads them (gg_frame_barrier, persistent.cuh); inside, each group's
 * thread 0 publishes its progress and spins (with __nanosleep) on the
 * other group's word in global memory between two named barriers, as a
 * neighbour wait does (frame.cuh gg_fn_wait_neighbours). */
__global__ void loop(int *out, unsigned long long *progress)
{
  __shared__ int s[2 * GROUP];
  __shared__ int args[32];
  __shared__ unsigned flag[3];
  const unsigned group = threadIdx.x / GROUP, t = threadIdx.x % GROUP;
  unsigned long long *mine_p = progress + (blockIdx.x * 2 + group) * 16;
  unsigned long long *other_p = progress + (blockIdx.x * 2 + (1 - group)) * 16;
  int *mine = s + group * GROUP;
  #pragma unroll 1 /* a real loop, as the persistent kernel's: its barriers are the same instructions every round */
  for (int r = 0; r < ROUNDS; ++r) {
    if (threadIdx.x < 32) args[threadIdx.x] = r * 1000;
    if (threadIdx.x == 0) flag[0] = r + 1;
    __syncthreads();
    const int a = args[t % 32] + (flag[0] == (unsigned)r + 1 ? 0 : 1 << 20);
    mine[t] = a + (int)threadIdx.x;
    group_sync(1 + group, blockDim.x / 2);
    if (t == 0) {
      asm volatile("st.release.gpu.u64 [%0], %1;" ::"l"(mine_p), "l"((unsigned long long)r + 1) : "memory");
      unsigned long long v;
      do {
        asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(other_p) : "memory");
        if (v < (unsigned long long)r + 1) __nanosleep(64);
      } while (v < (unsigned long long)r + 1);
      flag[1 + group] = 1;
    }
    group_sync(1 + group, blockDim.x / 2);
    out[(blockIdx.x * ROUNDS + r) * 2 * GROUP + threadIdx.x] = mine[(t + 1) % GROUP] + (int)(flag[1 + group] - 1);
    group_sync(1 + group, blockDim.x / 2);
    __syncthreads();
  }
}

/* Mode "calls": the loop's pieces as the generated kernel has them -
 * called, not inlined: warp 0 polls a word with warp votes and writes
 * the arguments, a block barrier function writes and reads a flag around
 * its __syncthreads (gg_frame_barrier), the groups' work is a function of
 * its own; dynamic shared memory for the groups, a block of 512. */
__device__ __noinline__ void calls_flag_barrier(int r)
{
  __shared__ unsigned ok;
  __syncthreads();
  if (threadIdx.x == 0) ok = (unsigned)r + 1;
  __syncthreads();
  if (ok != (unsigned)r + 1) __trap();
}
__device__ __noinline__ void calls_group(int *out, int *smem, const int *args, int r)
{
  const unsigned half = blockDim.x / 2, group = threadIdx.x / half, t = threadIdx.x % half;
  int *mine = smem + group * half;
  mine[t] = args[t % 32] + (int)threadIdx.x;
  group_sync(1 + group, half);
  out[(blockIdx.x * ROUNDS + r) * blockDim.x + threadIdx.x] = mine[(t + 1) % half] - (int)(group * half) - (int)((t + 1) % half);
  group_sync(1 + group, half);
}
__global__ void calls(int *out, const unsigned *word)
{
  extern __shared__ int dyn[];
  __shared__ int args[32];
  __shared__ unsigned command;
  #pragma unroll 1 /* a real loop, as the persistent kernel's: its barriers are the same instructions every round */
  for (int r = 0; r < ROUNDS; ++r) {
    if (threadIdx.x < 32) {
      unsigned v;
      do {
        asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(word) : "memory");
        if (!__all_sync(0xffffffffu, v != 0)) __nanosleep(32);
      } while (!__all_sync(0xffffffffu, v != 0));
      args[threadIdx.x] = __shfl_sync(0xffffffffu, (int)v, 0) * 0 + r * 1000;
      if (threadIdx.x == 0) command = (unsigned)r;
    }
    __syncthreads();
    if (command != (unsigned)r) __trap();
    calls_group(out, dyn, args, r);
    calls_flag_barrier(r);
    __syncthreads();
  }
}

/* The modes of one round loop.  MODE: 0 named - a named barrier per
 * group; 1 block - __syncthreads; 2 none; 3 mixed - as the persistent
 * kernel's loop; and "mixed" with one thing more:
 * 5 uneven - group 1 meets at its named barrier once more per round than
 *   group 0 (as pseudo-blocks do whose stages take different paths);
 * 7 drift - each group meets 0 to 3 more times per round, a count that
 *   changes with the round and differs between the groups;
 * 8 either - the group barrier is gg_sync's former if/else (either_sync);
 * 9 skew_poll, 10 skew_g0, 11 skew_g1 - one party slow, as in the
 *   persistent kernel, where warp 0 waits for the host's next frame while
 *   the rest of the block waits at __syncthreads, and one group may still
 *   work behind its named barriers while the others wait at the frame's
 *   end: warp 0 before it writes the arguments, group 0 or group 1
 *   between its named barriers;
 * 12 ticket - the reduction's finish as the persistent kernel ran it on
 *   pseudo-blocks (templates/common/reduce_finish_ticket.cuh): each
 *   group's thread 0 takes a ticket from a global counter, the group
 *   learns through shared memory whether it came last, and only the last
 *   group meets twice more at its named barrier (its block_reduce) -
 *   which group that is changes from round to round, at run time.
 * Every mode but none is correct: every group's barriers are its own and
 * the block meets at __syncthreads. */
template <int MODE>
__global__ void exchange(int *out, unsigned base, unsigned *tickets)
{
  constexpr bool mixed = MODE == 3 || MODE == 5 || MODE >= 7;
  __shared__ int s[2 * GROUP];
  __shared__ int args[32];
  __shared__ unsigned last_of[2];
  const unsigned group = threadIdx.x / GROUP, t = threadIdx.x % GROUP;
  int *mine = s + group * GROUP;
  /* the group's barrier: gg_sync's former if/else in mode either, with an
     id from a kernel argument (base = 1) that the compiler cannot fold */
  const auto sync = [&] {
    if (MODE == 8)
      either_sync(base + group, blockDim.x / 2);
    else
      group_sync(1 + group, blockDim.x / 2);
  };
#pragma unroll 1 /* a real loop, as the persistent kernel's: its barriers are the same instructions every round */
  for (int r = 0; r < ROUNDS; ++r) {
    /* mixed, as the persistent kernel's loop: warp 0 writes the frame's
       arguments, the whole block meets (__syncthreads), every group reads
       them and works behind its own named barriers, the block meets again */
    if (mixed && threadIdx.x < 32) {
      if (MODE == 9) spin_us(20);
      args[threadIdx.x] = r * 1000;
    }
    if (mixed) __syncthreads();
    mine[t] = (mixed ? args[t % 32] : r * 1000) + (int)threadIdx.x;
    if (MODE == 0 || mixed) sync();
    if (MODE == 5 && group == 1) sync();
    if (MODE == 7)
      for (int k = 0; k < (r * 7 + (int)group * 3) % 4; ++k) sync();
    if ((MODE == 10 && group == 0) || (MODE == 11 && group == 1)) spin_us(20);
    if (MODE == 12) {
      if (t == 0) last_of[group] = atomicAdd(&tickets[blockIdx.x], 1u) % 2 == 1;
      sync();
      const unsigned last = last_of[group];
      sync();
      if (last) { /* the last group's block_reduce */
        sync();
        sync();
      }
    }
    if (MODE == 1) __syncthreads();
    out[(blockIdx.x * ROUNDS + r) * 2 * GROUP + threadIdx.x] = mine[(t + 1) % GROUP];
    if (MODE == 0 || mixed) sync();
    if (MODE == 1 || mixed) __syncthreads();
  }
}

int main(int argc, char **argv)
{
  static const char *const names[] = {"named", "block", "none", "mixed", "loop", "uneven", "calls", "drift", "either",
                                     "skew_poll", "skew_g0", "skew_g1", "ticket"};
  const int nmodes = (int)(sizeof names / sizeof names[0]);
  int mode = argc > 1 ? -1 : 0;
  for (int m = 0; m < nmodes; ++m)
    if (argc > 1 && !strcmp(argv[1], names[m])) mode = m;
  if (mode < 0) {
    fprintf(stderr, "named_barriers: unknown mode %s; the modes:", argv[1]);
    for (int m = 0; m < nmodes; ++m) fprintf(stderr, " %s", names[m]);
    fprintf(stderr, "\n");
    return 2;
  }
  enum { BLOCKS = 3 };
  static int h[BLOCKS * ROUNDS * 2 * GROUP];
  int *d;
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) {
    fprintf(stderr, "no GPU\n");
    return 77;
  }
  unsigned long long *progress = nullptr;
  unsigned *tickets = nullptr;
  if (mode == 4 && cudaMalloc(&progress, BLOCKS * 2 * 16 * 8) == cudaSuccess &&
      cudaMemset(progress, 0, BLOCKS * 2 * 16 * 8) == cudaSuccess)
    loop<<<BLOCKS, 2 * GROUP>>>(d, progress);
  if (mode == 12 && (cudaMalloc(&tickets, BLOCKS * 4) != cudaSuccess ||
                     cudaMemset(tickets, 0, BLOCKS * 4) != cudaSuccess)) {
    fprintf(stderr, "no memory for the tickets\n");
    return 1;
  }
  switch (mode) {
  case 0: exchange<0><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 1: exchange<1><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 2: exchange<2><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 3: exchange<3><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 5: exchange<5><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 7: exchange<7><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 8: exchange<8><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 9: exchange<9><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 10: exchange<10><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 11: exchange<11><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  case 12: exchange<12><<<BLOCKS, 2 * GROUP>>>(d, 1u, tickets); break;
  }
  unsigned *word = nullptr;
  if (mode == 6 && cudaMalloc(&word, 4) == cudaSuccess && cudaMemset(word, 0xff, 4) == cudaSuccess)
    calls<<<1, 4 * GROUP, 4 * GROUP * sizeof(int)>>>(d, word);
  const cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); /* after the kernel */
  if (e != cudaSuccess) {
    fprintf(stderr, "named_barriers %s: %s\n", names[mode], cudaGetErrorString(e));
    return 1;
  }
  int bad = 0;
  if (mode == 6) { /* calls: one block of 512, out = r * 1000 */
    for (int r = 0; r < ROUNDS; ++r)
      for (int i = 0; i < 4 * GROUP; ++i)
        bad += h[r * 4 * GROUP + i] != r * 1000;
    printf("mode calls: %d wrong values of %d\n", bad, ROUNDS * 4 * GROUP);
    cudaFree(d);
    cudaFree(word);
    return bad ? 1 : 0;
  }
  for (int b = 0; b < BLOCKS; ++b)
    for (int r = 0; r < ROUNDS; ++r)
      for (int i = 0; i < 2 * GROUP; ++i) {
        const int group = i / GROUP, want = r * 1000 + group * GROUP + (i % GROUP + 1) % GROUP;
        bad += h[(b * ROUNDS + r) * 2 * GROUP + i] != want;
      }
  printf("mode %s: %d wrong values of %d\n", names[mode], bad, BLOCKS * ROUNDS * 2 * GROUP);
  cudaFree(d);
  cudaFree(progress);
  cudaFree(tickets);
  return mode != 2 && bad ? 1 : 0;
}
