/* ---- gpugen prelude: CUDA (NVRTC) ------------------------------------
 * Everything the pattern templates use that differs between vendors:
 * the virtual grid, barriers, warp helpers, atomics, system-scope
 * acquire/release.  The emitter defines GG_USE_HALF, GG_USE_BF16 and
 * GG_USE_GRID_SYNC before this text when a kernel of the module needs
 * them, so other modules pay no compile time for those headers.
 */
#if defined(GG_USE_HALF) || defined(GG_USE_BF16)
#define GG_USE_HALF 1
#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef __half gg_f16;
typedef __nv_bfloat16 gg_bf16;
#endif
#if defined(GG_USE_GRID_SYNC)
#include <cooperative_groups.h>
#endif

/* Every kernel unpacks all its arguments and view extents; a body uses
 * only some of them, so "declared but never referenced" is noise. */
#pragma nv_diag_suppress 177

/* +infinity as a float: the identity of min (and -GG_INF of max) */
#define GG_INF (__int_as_float(0x7f800000))
#define GG_RESTRICT __restrict__
#define GG_INLINE __device__ __forceinline__

/* A frame's result as the thread that stored it left it (gg_result_note). */
struct gg_result_shadow {
  const void *p;           /* the element stored: the result view's first */
  unsigned long long bits; /* its bytes, zero-extended */
};

/* The virtual grid a body function runs on (docs/internals.md). */
struct gg_grid {
  unsigned block, nblocks;   /* this (pseudo-)block and how many there are */
  unsigned thread, nthreads; /* thread within the (pseudo-)block, its size */
  unsigned bar_id;           /* named barrier for pseudo-blocks (0 = whole block) */
  char *smem;                /* this (pseudo-)block's dynamic shared memory */
  gg_result_shadow *note;    /* a persistent kernel's result note; null elsewhere */
};

/* What a reduction's fold runs before it reads index i (reduce_fold.cuh):
 * nothing on its own; the body of a for stage a frame fused into it
 * (gen/frame_deps.c), through gg_each_of(lambda). */
struct gg_no_pre {
  static constexpr bool none = true;
  __device__ void operator()(long long) const {}
};
template <class F> struct gg_each {
  static constexpr bool none = false;
  F f;
  __device__ void operator()(long long i) const { f(i); }
};
template <class F> __device__ gg_each<F> gg_each_of(F f) { return gg_each<F>{f}; }

/* Dynamic shared memory of the launch (size given by the descriptor). */
extern __shared__ __align__(16) char gg_smem[];

/* The hardware grid: one virtual block per hardware block. */
GG_INLINE gg_grid gg_grid_hw()
{
  gg_grid g;
  g.block = blockIdx.x;
  g.nblocks = gridDim.x;
  g.thread = threadIdx.x;
  g.nthreads = blockDim.x;
  g.bar_id = 0;
  g.smem = gg_smem;
  g.note = nullptr;
  return g;
}

/* Programmatic dependent launch (the classic wrapper of a kernel whose
 * plan says GG_FEAT_PDL).  Launched with the programmatic-stream-
 * serialization attribute, a kernel may start while the previous kernel
 * of its stream still runs; griddepcontrol.wait then holds each thread
 * until every prerequisite grid has completed and its memory operations
 * are visible (PTX ISA, "griddepcontrol"), so it comes before the body's
 * first access.  launch_dependents lets the NEXT kernel start once every
 * block of this one has issued it (or exited); it is issued first, even
 * before the wait, so the next launch is under way while this kernel
 * still waits for its own predecessor.  That is safe: the dependent's
 * blocks only spin in their own wait, and they are placed only once all
 * of this grid's blocks are resident (every block issued it), so they
 * never take a slot this grid still needs.  Launched without the attribute there is no
 * prerequisite grid in flight and no dependent to release: both are
 * no-ops.  sm_90+ only (PTX 7.8); older archs compile nothing. */
GG_INLINE void gg_pdl_entry()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Barrier over the (pseudo-)block.  Pseudo-blocks use hardware named
 * barriers (ids 1..15) counting only their own threads, so groups of one
 * block never wait for each other; their size is a multiple of 32. */
GG_INLINE void gg_sync(const gg_grid &g)
{
  if (g.bar_id == 0)
    __syncthreads();
  else
    asm volatile("bar.sync %0, %1;" ::"r"(g.bar_id), "r"(g.nthreads) : "memory");
}

/* gg_sync, and whether pred held on any thread of the (pseudo-)block:
 * one barrier that also tells every thread whether one of them gave up
 * (the allreduce's bounded waits). */
GG_INLINE bool gg_sync_or(const gg_grid &g, bool pred)
{
  if (g.bar_id == 0)
    return __syncthreads_or(pred) != 0;
  unsigned any;
  asm volatile("{\n .reg .pred p, q;\n setp.ne.u32 p, %1, 0;\n"
               " bar.red.or.pred q, %2, %3, p;\n selp.u32 %0, 1, 0, q;\n}"
               : "=r"(any)
               : "r"((unsigned)pred), "r"(g.bar_id), "r"(g.nthreads)
               : "memory");
  return any != 0;
}

/* ---- a frame's exchange across GPUs (common/allreduce.cuh, gather.cuh) ----
 * An element of type T (4 or 8 bytes) in an exchange's buffers: each of
 * its 4-byte words in an 8-byte word with a flag, the stage's run, in the
 * high half (NCCL's LL protocol).  An 8-byte access is single-copy atomic,
 * so a reader that sees every flag of an element at the run has the
 * element: no fence, no signal.  Relaxed at system scope: the words go
 * over NVLink to a peer GPU and order nothing else. */
template <class T> struct gg_ll_of {
  unsigned long long w[sizeof(T) / 4];
};
template <class T> GG_INLINE void gg_ll_store(gg_ll_of<T> *to, T v, unsigned run)
{
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "an exchange moves 4- or 8-byte elements");
  unsigned d[2] = {0u, 0u};
  memcpy(d, &v, sizeof v);
  const unsigned long long f = (unsigned long long)run << 32;
  if (sizeof(T) == 4)
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(to), "l"(f | d[0]) : "memory");
  else
    asm volatile("st.relaxed.sys.global.v2.u64 [%0], {%1, %2};" ::"l"(to), "l"(f | d[0]),
                 "l"(f | d[1])
                 : "memory");
}
/* Read an element gg_ll_store stored: true when all its flags are run. */
template <class T> GG_INLINE bool gg_ll_load(const gg_ll_of<T> *from, unsigned run, T *v)
{
  unsigned long long w[2] = {0ull, (unsigned long long)run << 32};
  if (sizeof(T) == 4)
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(w[0]) : "l"(from) : "memory");
  else
    asm volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%2];" : "=l"(w[0]), "=l"(w[1])
                 : "l"(from)
                 : "memory");
  const unsigned d[2] = {(unsigned)w[0], (unsigned)w[1]};
  memcpy(v, d, sizeof *v);
  return (unsigned)(w[0] >> 32) == run && (unsigned)(w[1] >> 32) == run;
}

/* A view declared halo = h (a for body's view macro, gen/dict.c): index j
 * must lie within h of the thread's own linear index.  Frames wait only
 * for neighbouring (pseudo-)blocks before a stage that reads through such
 * a view (gen/frame_deps.c), so a body that reads farther would race; it stops
 * the kernel with a trap instead, which the session or launch reports as
 * a fault, never a silently wrong result.  Two compares per access. */
GG_INLINE long long gg_halo_index(long long j, long long own, long long h)
{
  if (j - own > h || own - j > h)
    __trap();
  return j;
}

/* What a frame's halo exchange (global/halo_exchange.cuh) needs of the
 * target: a 64-bit word stored and polled at GPU scope, relaxed (a
 * 64-bit access is single-copy atomic: a reader sees the whole word or
 * none of it, so a value and its tag travel together and need no fence),
 * a pause between slow polls, and a look at the host's abort line
 * (gg_host_aborted, with the memory-ordering helpers below).  No
 * "memory" clobber: the words order nothing else, so the compiler may
 * keep the body's own loads in flight across them (and take a published
 * value from the register it was just stored from). */
GG_INLINE void gg_xchg_st(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v));
}
GG_INLINE unsigned long long gg_xchg_ld(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
GG_INLINE void gg_xchg_pause() { __nanosleep(64); }

/* ---- warps ---- */
#define GG_WARP_SIZE 32
GG_INLINE int gg_warp_size() { return 32; }
GG_INLINE int gg_lane() { return threadIdx.x & 31; }
template <class T> GG_INLINE T gg_shfl_down(T v, int delta)
{
  return __shfl_down_sync(0xffffffffu, v, delta);
}
template <class T> GG_INLINE T gg_shfl_xor(T v, int mask)
{
  return __shfl_xor_sync(0xffffffffu, v, mask);
}
template <class T> GG_INLINE T gg_shfl(T v, int lane)
{
  return __shfl_sync(0xffffffffu, v, lane);
}

/* ---- two 64-bit words in one access ----
 * One 16-byte volatile load or store (ld/st.volatile.v2.u64) of a
 * 16-byte aligned pair: a single instruction and transaction, but under
 * the PTX memory model two single-copy atomic 8-byte accesses in an
 * unspecified order, like two scalar ones (the scan's look-back states
 * rely only on that). */
GG_INLINE void gg_load2_volatile(const unsigned long long *p, unsigned long long w[2])
{
  asm volatile("ld.volatile.v2.u64 {%0, %1}, [%2];" : "=l"(w[0]), "=l"(w[1]) : "l"(p) : "memory");
}
GG_INLINE void gg_store2_volatile(unsigned long long *p, unsigned long long a, unsigned long long b)
{
  asm volatile("st.volatile.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}

/* ---- atomics ----
 * Native where the hardware has them (sm_60+: add on f32/f64, min/max on
 * integers); compare-and-swap loops otherwise.  16-bit types go through
 * a CAS on the aligned 32-bit word holding them. */
template <class T, class F> GG_INLINE T gg_atomic_cas_combine(T *p, T v, F f);

GG_INLINE int gg_atomic_add(int *p, int v) { return atomicAdd(p, v); }
GG_INLINE unsigned gg_atomic_add(unsigned *p, unsigned v) { return atomicAdd(p, v); }
GG_INLINE long long gg_atomic_add(long long *p, long long v)
{
  /* two's complement: an unsigned add is the signed add */
  return (long long)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
GG_INLINE unsigned long long gg_atomic_add(unsigned long long *p, unsigned long long v)
{
  return atomicAdd(p, v);
}
GG_INLINE float gg_atomic_add(float *p, float v) { return atomicAdd(p, v); }
GG_INLINE double gg_atomic_add(double *p, double v) { return atomicAdd(p, v); }

GG_INLINE int gg_atomic_min(int *p, int v) { return atomicMin(p, v); }
GG_INLINE unsigned gg_atomic_min(unsigned *p, unsigned v) { return atomicMin(p, v); }
GG_INLINE long long gg_atomic_min(long long *p, long long v) { return atomicMin(p, v); }
GG_INLINE unsigned long long gg_atomic_min(unsigned long long *p, unsigned long long v) { return atomicMin(p, v); }
GG_INLINE int gg_atomic_max(int *p, int v) { return atomicMax(p, v); }
GG_INLINE unsigned gg_atomic_max(unsigned *p, unsigned v) { return atomicMax(p, v); }
GG_INLINE long long gg_atomic_max(long long *p, long long v) { return atomicMax(p, v); }
GG_INLINE unsigned long long gg_atomic_max(unsigned long long *p, unsigned long long v) { return atomicMax(p, v); }

struct gg_op_add { template <class T> GG_INLINE T operator()(T a, T b) const { return a + b; } };
struct gg_op_min { template <class T> GG_INLINE T operator()(T a, T b) const { return b < a ? b : a; } };
struct gg_op_max { template <class T> GG_INLINE T operator()(T a, T b) const { return a < b ? b : a; } };
struct gg_op_mul { template <class T> GG_INLINE T operator()(T a, T b) const { return a * b; } };

/* Floats have no native min/max atomics: CAS loops. */
GG_INLINE float gg_atomic_min(float *p, float v) { return gg_atomic_cas_combine(p, v, gg_op_min()); }
GG_INLINE float gg_atomic_max(float *p, float v) { return gg_atomic_cas_combine(p, v, gg_op_max()); }
GG_INLINE double gg_atomic_min(double *p, double v) { return gg_atomic_cas_combine(p, v, gg_op_min()); }
GG_INLINE double gg_atomic_max(double *p, double v) { return gg_atomic_cas_combine(p, v, gg_op_max()); }

template <class T> struct gg_bits;
template <> struct gg_bits<int> { typedef unsigned type; };
template <> struct gg_bits<unsigned> { typedef unsigned type; };
template <> struct gg_bits<float> { typedef unsigned type; };
template <> struct gg_bits<long long> { typedef unsigned long long type; };
template <> struct gg_bits<unsigned long long> { typedef unsigned long long type; };
template <> struct gg_bits<double> { typedef unsigned long long type; };

/* old = *p; *p = f(old, v), atomically; returns old.  4- and 8-byte T. */
template <class T, class F> GG_INLINE T gg_atomic_cas_combine(T *p, T v, F f)
{
  typedef typename gg_bits<T>::type U;
  U *up = (U *)p;
  U old = *(volatile U *)up, assumed;
  do {
    assumed = old;
    T cur;
    memcpy(&cur, &assumed, sizeof cur);
    T nv = f(cur, v);
    U nb;
    memcpy(&nb, &nv, sizeof nb);
    old = atomicCAS(up, assumed, nb);
  } while (old != assumed);
  T r;
  memcpy(&r, &old, sizeof r);
  return r;
}

#if defined(GG_USE_HALF)
/* 16-bit floats: CAS on the 32-bit word, computing in float. */
template <class H, class F> GG_INLINE H gg_atomic_cas_combine16(H *p, H v, F f)
{
  unsigned *w = (unsigned *)((size_t)p & ~(size_t)3);
  const unsigned shift = ((size_t)p & 2) ? 16 : 0;
  unsigned old = *(volatile unsigned *)w, assumed;
  do {
    assumed = old;
    unsigned short hb = (unsigned short)(assumed >> shift);
    H cur;
    memcpy(&cur, &hb, 2);
    H nv = H(f((float)cur, (float)v));
    unsigned short nb;
    memcpy(&nb, &nv, 2);
    unsigned nw = (assumed & ~(0xffffu << shift)) | ((unsigned)nb << shift);
    old = atomicCAS(w, assumed, nw);
  } while (old != assumed);
  unsigned short ob = (unsigned short)(old >> shift);
  H r;
  memcpy(&r, &ob, 2);
  return r;
}
GG_INLINE gg_f16 gg_atomic_add(gg_f16 *p, gg_f16 v) { return gg_atomic_cas_combine16(p, v, gg_op_add()); }
GG_INLINE gg_f16 gg_atomic_min(gg_f16 *p, gg_f16 v) { return gg_atomic_cas_combine16(p, v, gg_op_min()); }
GG_INLINE gg_f16 gg_atomic_max(gg_f16 *p, gg_f16 v) { return gg_atomic_cas_combine16(p, v, gg_op_max()); }
GG_INLINE gg_bf16 gg_atomic_add(gg_bf16 *p, gg_bf16 v) { return gg_atomic_cas_combine16(p, v, gg_op_add()); }
GG_INLINE gg_bf16 gg_atomic_min(gg_bf16 *p, gg_bf16 v) { return gg_atomic_cas_combine16(p, v, gg_op_min()); }
GG_INLINE gg_bf16 gg_atomic_max(gg_bf16 *p, gg_bf16 v) { return gg_atomic_cas_combine16(p, v, gg_op_max()); }
#endif

/* ---- memory ordering ----
 * Every template that orders its accesses against another block's or the
 * host's does it through these helpers, one per PTX form (sm_70+), each
 * with a "memory" clobber so that the compiler keeps the kernel's other
 * accesses on their side of it.  Scope .sys: ordered against the CPU's
 * accesses to the same pinned memory (host-mapped mailboxes), which
 * volatile alone is not; scope .gpu: flags between blocks.  Relaxed: the
 * word alone is read or written whole (a 64-bit access is single-copy
 * atomic), ordering nothing else. */
GG_INLINE unsigned gg_load_acquire_sys(const unsigned *p)
{
  unsigned v;
  asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE unsigned long long gg_load_acquire_sys(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE void gg_store_release_sys(unsigned *p, unsigned v)
{
  asm volatile("st.release.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GG_INLINE void gg_store_release_sys(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GG_INLINE unsigned long long gg_load_relaxed_sys(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE void gg_store_relaxed_sys(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
/* The same at device (gpu) scope, for flags between blocks. */
GG_INLINE unsigned gg_load_acquire_gpu(const unsigned *p)
{
  unsigned v;
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE unsigned long long gg_load_acquire_gpu(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE unsigned long long gg_load_relaxed_gpu(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GG_INLINE void gg_store_release_gpu(unsigned *p, unsigned v)
{
  asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GG_INLINE void gg_store_release_gpu(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.release.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
/* Take a ticket: add 1, return the count before.  acq_rel at gpu scope:
 * the release orders this thread's earlier writes (a block's partial)
 * before the ticket, the acquire makes every earlier taker's visible to
 * this thread - and, after its block's barrier, to the whole block.  No
 * __threadfence (a MEMBAR.SC.GPU) on either side. */
GG_INLINE unsigned gg_ticket_take(unsigned *p)
{
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  return old;
}
GG_INLINE unsigned long long gg_ticket_take(unsigned long long *p)
{
  unsigned long long old;
  asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;" : "=l"(old) : "l"(p) : "memory");
  return old;
}
/* The thread that stores a reduction's value (store() of the reduce and
 * team templates) notes it in its block's shared memory, where a
 * persistent kernel (g.note) keeps one: the frame's ack then takes the
 * value from there instead of reading it back from global memory, one L2
 * round trip less (~0.2-0.4 us on an H100) between the last stage and the
 * host.  The kernel clears the note at each frame's start; the plan says
 * where the note can be trusted (gen/frame_schedule.c, result_noted).  Classic
 * kernels have no note and no shared memory for it. */
template <class T, class A> GG_INLINE void gg_result_note(const gg_grid &g, T *p, const A &v)
{
  if constexpr (sizeof(T) <= 8) {
    if (!g.note)
      return;
    const T x = (T)v;
    unsigned long long b = 0;
    for (unsigned i = 0; i < sizeof(T); ++i) /* the bytes, as a memcpy */
      ((unsigned char *)&b)[i] = ((const unsigned char *)&x)[i];
    g.note->bits = b;
    g.note->p = p;
  }
}
GG_INLINE void gg_fence_sys() { __threadfence_system(); }
GG_INLINE void gg_fence_gpu() { __threadfence(); }
GG_INLINE void gg_nanosleep(unsigned ns) { __nanosleep(ns); }
GG_INLINE unsigned long long gg_clock_ns()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
/* Whether the host set the mailbox's abort word (gg_protocol.h): every
 * wait of a persistent kernel looks at it now and then. */
GG_INLINE bool gg_host_aborted(const char *mbox)
{
  return gg_load_relaxed_sys((const unsigned long long *)(mbox + GG_MBOX_ABORT_OFF)) != 0;
}

/* ---- grid barriers ----
 * gg_grid_barrier: sense-reversing barrier on two words of workspace
 * ({count, generation}), for grids whose blocks are all co-resident
 * (cooperative launch or a persistent grid sized by occupancy).  The last
 * block to arrive resets count and bumps generation; waiters spin on the
 * generation they saw when arriving, so the words never need a reset and
 * count is 0 again between barriers. */
GG_INLINE void gg_grid_barrier(unsigned *bar)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned gen = gg_load_acquire_gpu(&bar[1]);
    __threadfence(); /* this block's writes before its arrival */
    if (atomicAdd(&bar[0], 1u) == gridDim.x - 1) {
      atomicExch(&bar[0], 0u);
      __threadfence();
      atomicAdd(&bar[1], 1u);
    } else {
      while (gg_load_acquire_gpu(&bar[1]) == gen)
        __nanosleep(32);
    }
    __threadfence();
  }
  __syncthreads();
}

/* Whole-grid sync of a cooperative kernel: CUDA's own grid group (the
 * kernel is launched with cuLaunchCooperativeKernel).  `bar` is unused
 * here; the HIP prelude needs it. */
#if defined(GG_USE_GRID_SYNC)
GG_INLINE void gg_grid_sync(unsigned *bar) { cooperative_groups::this_grid().sync(); }
#endif

/* ---- index decode ----
 * 64-bit division is several times slower than 32-bit on GPUs; use the
 * 32-bit one whenever both operands fit, which is the usual case. */
GG_INLINE void gg_divmod(long long a, long long b, long long &q, long long &r)
{
  if ((((unsigned long long)a | (unsigned long long)b) >> 32) == 0) {
    const unsigned q32 = (unsigned)a / (unsigned)b;
    q = q32;
    r = (long long)((unsigned)a - q32 * (unsigned)b);
  } else {
    q = a / b;
    r = a - q * b;
  }
}

/* ---- team-level reduction over a (pseudo-)block ----
 * A shared-memory tree over `scratch_` (nthreads values of T, in this
 * group's shared memory): correct for any group size, fixed order.  Every
 * thread of the group calls it; every thread gets the result. */
template <class T, class F> GG_INLINE T gg_group_reduce(const gg_grid &g, T v, void *scratch_, F f)
{
  T *scratch = (T *)scratch_;
  scratch[g.thread] = v;
  gg_sync(g);
  unsigned half = 1;
  while (half < g.nthreads) half <<= 1;
  for (half >>= 1; half > 0; half >>= 1) {
    if (g.thread < half && g.thread + half < g.nthreads)
      scratch[g.thread] = f(scratch[g.thread], scratch[g.thread + half]);
    gg_sync(g);
  }
  T r = scratch[0];
  gg_sync(g); /* scratch may be reused right after */
  return r;
}
/* ---- end of prelude ---- */
