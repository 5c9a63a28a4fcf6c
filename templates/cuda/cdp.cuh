/* ---- device-side launch (CuPer's CDP variant) ---------------------------
 * A one-thread parent kernel, launched once, polls a host-mapped mailbox
 * and, per frame, launches the frame's work as a CHILD grid from the
 * device (dynamic parallelism).  CUDA 12+ has no device-side
 * cudaDeviceSynchronize, so children go to cudaStreamFireAndForget and
 * report completion themselves: the child's last block release-stores the
 * frame number to host memory (st.release.sys), where the host waits.
 * The parent does not wait for the child: the host posts frame k+1 only
 * after it saw frame k done, so frames never overlap.  Two parents:
 * gg_cdp_parent lives until told to quit; gg_cdp_parent_tail serves one
 * frame and tail-launches its successor (measured slower: bench/RESULTS.md).
 *
 * Mailbox (host-mapped, 64-byte lines so that the host's writes and the
 * device's writes never share a line):
 *   line 0  cmd    host -> parent   (seq << 8) | command, host release-stores
 *   line 1  done   child -> host    seq of the last finished frame
 *           sum    child -> host    the sum frame's result (written before done)
 *   line 2  state  parent -> host   1 running, 2 exited; error: the device
 *           launch error (cudaError_t) of the frame in `done`
 * Compile with -rdc=true and link with libcudadevrt (gg_module_load_rdc),
 * after gg_abi.h, gg_protocol.h and the CUDA prelude (its memory-ordering
 * helpers), as gpugen renders a source; nothing to fill in.
 */
#ifndef cudaStreamFireAndForget /* cuda_device_runtime_api.h's values */
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
#endif

enum { GG_CDP_NONE = 0, GG_CDP_EMPTY = 1, GG_CDP_INC = 2, GG_CDP_SUM = 3, GG_CDP_QUIT = 255 };
enum { GG_CDP_RUNNING = 1, GG_CDP_EXITED = 2 };

struct gg_cdp_box {
  unsigned long long cmd, pad0[7];
  unsigned long long done;
  long long sum;
  unsigned long long pad1[6];
  unsigned long long state, error, pad2[6];
};

struct gg_cdp_args {
  gg_cdp_box *box;           /* host-mapped */
  int *x;                    /* device: the increment and sum data */
  unsigned long long *ticket;/* device, zeroed: block arrivals of the inc child */
  long long n_inc, n_sum;
  unsigned long long idle_ns;/* parent exits after this long without a frame */
};

/* A child's one parameter (gpugen's convention: one struct by value, so
 * the host can launch the same children for the launch+sync comparison). */
struct gg_cdp_frame {
  gg_cdp_args a;
  unsigned long long seq;
};

/* Empty frame: only the completion, so the row measures the device-side
 * launch and the two PCIe crossings. */
extern "C" __global__ void gg_cdp_empty(gg_cdp_frame f)
{
  gg_store_release_sys(&f.a.box->done, f.seq);
}

/* x[i] += 1 for i < n.  Every block arrives on the ticket (acq_rel at gpu
 * scope: the arriving block's writes are ordered before its arrival); the
 * last one resets the ticket for the next frame and releases the frame
 * to the host at system scope. */
extern "C" __global__ void gg_cdp_inc(gg_cdp_frame f)
{
  const gg_cdp_args &a = f.a;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n_inc) a.x[i] += 1;
  __syncthreads();
  if (threadIdx.x != 0) return;
  if (gg_ticket_take(a.ticket) != gridDim.x - 1) return;
  *a.ticket = 0; /* nobody else touches it until the next frame's launch */
  gg_store_release_sys(&a.box->done, f.seq);
}

/* sum of x[0..n) as a 64-bit integer, one block of 256 threads (the 1K
 * frame of the benchmark: one block is the fastest shape for it). */
extern "C" __global__ void gg_cdp_sum(gg_cdp_frame f)
{
  const gg_cdp_args &a = f.a;
  __shared__ long long part[256];
  long long s = 0;
  for (long long i = threadIdx.x; i < a.n_sum; i += blockDim.x) s += a.x[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  a.box->sum = part[0]; /* ordered before `done` by the release below */
  gg_store_release_sys(&a.box->done, f.seq);
}

/* Launch frame `seq`'s child; an unknown command or a refused launch is
 * answered here (error, then done) so the host never waits for nothing. */
__device__ void gg_cdp_dispatch(const gg_cdp_args &a, unsigned cmd, unsigned long long seq)
{
  gg_cdp_frame f = {a, seq};
  if (cmd == GG_CDP_EMPTY) {
    gg_cdp_empty<<<1, 1, 0, cudaStreamFireAndForget>>>(f);
  } else if (cmd == GG_CDP_INC) {
    unsigned blocks = (unsigned)((a.n_inc + 255) / 256);
    gg_cdp_inc<<<blocks, 256, 0, cudaStreamFireAndForget>>>(f);
  } else if (cmd == GG_CDP_SUM) {
    gg_cdp_sum<<<1, 256, 0, cudaStreamFireAndForget>>>(f);
  } else {
    a.box->error = 0xffffffffull;
    gg_store_release_sys(&a.box->done, seq);
    return;
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { /* the child never ran: answer for it */
    a.box->error = (unsigned long long)e;
    gg_store_release_sys(&a.box->done, seq);
  }
}

/* Wait for the command after `seen`: its word, or 0 after idle_ns. */
__device__ unsigned long long gg_cdp_next(const gg_cdp_args &a, unsigned long long seen)
{
  unsigned long long start = gg_clock_ns();
  for (;;) {
    unsigned long long w = gg_load_acquire_sys(&a.box->cmd);
    if ((w >> 8) != seen) return w;
    /* bounded: a host that died or forgot to quit does not leave the GPU
     * spinning forever */
    if (a.idle_ns && gg_clock_ns() - start > a.idle_ns) return 0;
  }
}

/* The parent: one thread, launched once.  Polls the command word at
 * system scope (one PCIe read per poll) and launches each frame's child.
 * Its children stay its children until it exits; the pending-launch
 * limit of the device runtime is what the GPU test checks over many
 * frames. */
extern "C" __global__ void gg_cdp_parent(gg_cdp_args a)
{
  unsigned long long seen = gg_load_acquire_sys(&a.box->cmd) >> 8;
  gg_store_release_sys(&a.box->state, GG_CDP_RUNNING);
  for (;;) {
    unsigned long long w = gg_cdp_next(a, seen);
    if (w == 0 || (w & 0xff) == GG_CDP_QUIT) break;
    seen = w >> 8;
    gg_cdp_dispatch(a, (unsigned)(w & 0xff), seen);
  }
  gg_store_release_sys(&a.box->state, GG_CDP_EXITED);
}

/* The same loop as a chain of one-frame parents: each serves one frame,
 * then tail-launches its successor (which starts after this grid and its
 * child complete).  No parent lives long, so no launch stays pending;
 * the price is a grid completion and a launch per frame.  f.seq: the
 * last frame seen. */
extern "C" __global__ void gg_cdp_parent_tail(gg_cdp_frame f)
{
  gg_store_release_sys(&f.a.box->state, GG_CDP_RUNNING);
  unsigned long long w = gg_cdp_next(f.a, f.seq);
  if (w == 0 || (w & 0xff) == GG_CDP_QUIT) {
    gg_store_release_sys(&f.a.box->state, GG_CDP_EXITED);
    return;
  }
  gg_cdp_frame next = {f.a, w >> 8};
  gg_cdp_dispatch(f.a, (unsigned)(w & 0xff), next.seq);
  gg_cdp_parent_tail<<<1, 1, 0, cudaStreamTailLaunch>>>(next);
  if (cudaGetLastError() != cudaSuccess) /* the chain ends: say so */
    gg_store_release_sys(&f.a.box->state, GG_CDP_EXITED);
}
