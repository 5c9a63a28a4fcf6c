/*
 * ticket_reduce.cuh - the one-pass grid reduction of the benches' peer
 * kernels (fft_chain_ref.cu, beamform_ref.cu), as one writes it next to
 * cuFFT and cuBLAS: no atomics on the result and no memset node.  Each
 * block reduces its share (warp shuffles, then the first warp adds the
 * warps'), writes its partial, and takes a ticket; the last block to take
 * one (the threadfence-reduction pattern of the CUDA samples) combines the
 * partials in block order - deterministic - writes the result and resets
 * the ticket for the next launch (state kept between launches: one stream
 * at a time).
 */
#ifndef TICKET_REDUCE_CUH
#define TICKET_REDUCE_CUH

/* The reductions the peers need: a sum and a maximum. */
struct ReduceSum {
  template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct ReduceMax {
  template <class T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <class T, class Op> __device__ T warp_reduce(T v, Op op)
{
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

/* The block's reduction of v (blockDim.x == Threads), in thread 0; the
 * other threads get values of no meaning. */
template <int Threads, class T, class Op> __device__ T block_reduce(T v, Op op, T identity)
{
  __shared__ T warps[Threads / 32];
  v = warp_reduce(v, op);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < Threads / 32 ? warps[threadIdx.x] : identity;
  return threadIdx.x < 32 ? warp_reduce(v, op) : identity;
}

/* *out = the reduction over the grid of every thread's v.  partials holds
 * gridDim.x values, ticket starts at 0 (and is 0 again after the call):
 * both are the calling kernel's own __device__ variables. */
template <int Threads, class T, class Op>
__device__ void grid_reduce(T v, Op op, T identity, T *partials, unsigned *ticket, T *out)
{
  v = block_reduce<Threads>(v, op, identity);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence(); /* the partial is visible before the ticket says so */
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence(); /* every block's partial, seen through its ticket */
  T t = identity;
  for (int b = threadIdx.x; b < (int)gridDim.x; b += blockDim.x)
    t = op(t, ((volatile T *)partials)[b]);
  t = block_reduce<Threads>(t, op, identity);
  if (threadIdx.x == 0) {
    *out = t;
    *ticket = 0;
  }
}
#endif
