/* ---- device-side launch (CuPer's CDP variant) ---------------------------
 * A one-thread parent kernel, launched once, polls a host-mapped mailbox
 * and, per frame, launches the frame's work as a CHILD grid from the
 * device (dynamic parallelism).  CUDA 12+ has no device-side
 * cudaDeviceSynchronize, so children go to cudaStreamFireAndForget and
 * report completion themselves: the child's last block release-stores the
 * frame number to host memory (st.release.sys), where the host waits.
 * The parent does not wait for the child: the host posts frame k+1 only
 * after it saw frame k done, so frames never overlap.
 *
 * Mailbox (host-mapped, 64-byte lines so that the host's writes and the
 * device's writes never share a line):
 *   line 0  cmd    host -> parent   (seq << 8) | command, host release-stores
 *   line 1  done   child -> host    seq of the last finished frame
 *           sum    child -> host    the sum frame's result (written before done)
 *   line 2  state  parent -> host   1 running, 2 exited; error: the device
 *           launch error (cudaError_t) of the frame in `done`
 * Compile with -rdc=true and link with libcudadevrt (gg_module_load_rdc).
 * Self-contained: no prelude, nothing to fill in.
 */
#ifndef cudaStreamFireAndForget
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

__device__ __forceinline__ unsigned long long gg_cdp_ld_acquire_sys(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void gg_cdp_st_release_sys(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long gg_cdp_now_ns(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

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
  gg_cdp_st_release_sys(&f.a.box->done, f.seq);
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
  unsigned long long old;
  asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;"
               : "=l"(old) : "l"(a.ticket) : "memory");
  if (old != gridDim.x - 1) return;
  *a.ticket = 0; /* nobody else touches it until the next frame's launch */
  gg_cdp_st_release_sys(&a.box->done, f.seq);
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
  gg_cdp_st_release_sys(&a.box->done, f.seq);
}

/* The parent: one thread.  Polls the command word at system scope, so a
 * frame costs one PCIe read after the host's write lands. */
extern "C" __global__ void gg_cdp_parent(gg_cdp_args a)
{
  gg_cdp_box *box = a.box;
  unsigned long long seen = gg_cdp_ld_acquire_sys(&box->cmd) >> 8;
  unsigned long long last = gg_cdp_now_ns();
  gg_cdp_st_release_sys(&box->state, GG_CDP_RUNNING);
  for (;;) {
    unsigned long long w = gg_cdp_ld_acquire_sys(&box->cmd);
    if ((w >> 8) == seen) {
      /* bounded: a host that died or forgot to quit does not leave the
       * GPU spinning forever */
      if (a.idle_ns && gg_cdp_now_ns() - last > a.idle_ns) break;
      continue;
    }
    seen = w >> 8;
    last = gg_cdp_now_ns();
    unsigned cmd = (unsigned)(w & 0xff);
    if (cmd == GG_CDP_QUIT) break;
    gg_cdp_frame f = {a, seen};
    if (cmd == GG_CDP_EMPTY) {
      gg_cdp_empty<<<1, 1, 0, cudaStreamFireAndForget>>>(f);
    } else if (cmd == GG_CDP_INC) {
      unsigned blocks = (unsigned)((a.n_inc + 255) / 256);
      gg_cdp_inc<<<blocks, 256, 0, cudaStreamFireAndForget>>>(f);
    } else if (cmd == GG_CDP_SUM) {
      gg_cdp_sum<<<1, 256, 0, cudaStreamFireAndForget>>>(f);
    } else {
      box->error = 0xffffffffull; /* unknown command: answer so the host does not wait */
      gg_cdp_st_release_sys(&box->done, seen);
      continue;
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { /* the child never ran: answer for it */
      box->error = (unsigned long long)e;
      gg_cdp_st_release_sys(&box->done, seen);
    }
  }
  gg_cdp_st_release_sys(&box->state, GG_CDP_EXITED);
}
