/* ---- gpugen prelude: HIP (hiprtc) -------------------------------------
 * The same names as the CUDA prelude, on what hiprtc 5.2 gives without
 * any include: hip_runtime.h must NOT be included (hiprtc already
 * provides the builtins, including it redefines them) and there is no
 * cooperative_groups, so barriers and tiles are built here on
 * __syncthreads, wavefront intrinsics and atomics.  Wavefronts are 64
 * lanes on CDNA (gfx90a) and 32 on RDNA (gfx1030): always use
 * gg_warp_size(), never a constant.
 */
#if defined(GG_USE_BF16)
/* hiprtc 5.2 rejects __bf16 ("not supported on this target") and has no
 * hip_bf16.h; gpugen refuses bf16 for the hip target before this point. */
#error "gpugen: bf16 is not supported on the hip target (hiprtc 5.2)"
#endif
#if defined(GG_USE_HALF)
/* f16: the compiler's native _Float16 (arithmetic included, no header). */
typedef _Float16 gg_f16;
#endif

/* +infinity as a float: the identity of min (and -GG_INF of max) */
#define GG_INF (__builtin_huge_valf())
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
  unsigned bar_id;           /* 0 = whole block; else a wavefront-sized group */
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
extern __shared__ __attribute__((aligned(16))) char gg_smem[];

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

/* Barrier over the (pseudo-)block.  AMD has no named barriers: a
 * pseudo-block is at most one wavefront, whose lanes run in lockstep, so
 * a workgroup-scope fence orders its shared-memory traffic.  A larger
 * pseudo-block cannot be synchronized and traps (gpugen never emits one
 * for hip). */
GG_INLINE void gg_sync(const gg_grid &g)
{
  if (g.bar_id == 0) {
    __syncthreads();
  } else {
    if (g.nthreads > (unsigned)warpSize) __builtin_trap();
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
    __builtin_amdgcn_wave_barrier();
  }
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
    __builtin_trap();
  return j;
}

/* What a frame's halo exchange (global/halo_exchange.cuh) needs of the
 * target (the CUDA prelude says why): a relaxed 64-bit word at agent
 * scope, a pause, the host's abort line. */
GG_INLINE void gg_xchg_st(unsigned long long *p, unsigned long long v)
{
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE unsigned long long gg_xchg_ld(const unsigned long long *p)
{
  return __hip_atomic_load((unsigned long long *)p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE void gg_xchg_pause() { __builtin_amdgcn_s_sleep(1); }

/* ---- wavefronts ---- */
GG_INLINE int gg_warp_size() { return warpSize; }
GG_INLINE int gg_lane() { return threadIdx.x & (warpSize - 1); }
template <class T> GG_INLINE T gg_shfl_down(T v, int delta) { return __shfl_down(v, delta); }
template <class T> GG_INLINE T gg_shfl_xor(T v, int mask) { return __shfl_xor(v, mask); }
template <class T> GG_INLINE T gg_shfl(T v, int lane) { return __shfl(v, lane); }

/* ---- two 64-bit words in one access ----
 * The CUDA prelude's 16-byte volatile pair; here two 8-byte volatile
 * accesses, which is all the callers rely on. */
__device__ __forceinline__ void gg_load2_volatile(const unsigned long long *p, unsigned long long w[2])
{
  w[0] = *(volatile const unsigned long long *)&p[0];
  w[1] = *(volatile const unsigned long long *)&p[1];
}
__device__ __forceinline__ void gg_store2_volatile(unsigned long long *p, unsigned long long a,
                                                   unsigned long long b)
{
  *(volatile unsigned long long *)&p[0] = a;
  *(volatile unsigned long long *)&p[1] = b;
}

/* ---- atomics ---- native add everywhere; integer min/max native for
 * 32-bit and unsigned 64-bit; the rest through compare-and-swap. */
struct gg_op_add { template <class T> GG_INLINE T operator()(T a, T b) const { return a + b; } };
struct gg_op_min { template <class T> GG_INLINE T operator()(T a, T b) const { return b < a ? b : a; } };
struct gg_op_max { template <class T> GG_INLINE T operator()(T a, T b) const { return a < b ? b : a; } };
struct gg_op_mul { template <class T> GG_INLINE T operator()(T a, T b) const { return a * b; } };

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
  U old = __hip_atomic_load(up, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT), assumed;
  do {
    assumed = old;
    T cur;
    __builtin_memcpy(&cur, &assumed, sizeof cur);
    T nv = f(cur, v);
    U nb;
    __builtin_memcpy(&nb, &nv, sizeof nb);
    old = atomicCAS(up, assumed, nb);
  } while (old != assumed);
  T r;
  __builtin_memcpy(&r, &old, sizeof r);
  return r;
}

GG_INLINE int gg_atomic_add(int *p, int v) { return atomicAdd(p, v); }
GG_INLINE unsigned gg_atomic_add(unsigned *p, unsigned v) { return atomicAdd(p, v); }
GG_INLINE long long gg_atomic_add(long long *p, long long v)
{
  return (long long)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
GG_INLINE unsigned long long gg_atomic_add(unsigned long long *p, unsigned long long v) { return atomicAdd(p, v); }
GG_INLINE float gg_atomic_add(float *p, float v) { return atomicAdd(p, v); }
GG_INLINE double gg_atomic_add(double *p, double v) { return atomicAdd(p, v); }

GG_INLINE int gg_atomic_min(int *p, int v) { return atomicMin(p, v); }
GG_INLINE unsigned gg_atomic_min(unsigned *p, unsigned v) { return atomicMin(p, v); }
GG_INLINE unsigned long long gg_atomic_min(unsigned long long *p, unsigned long long v) { return atomicMin(p, v); }
GG_INLINE long long gg_atomic_min(long long *p, long long v) { return gg_atomic_cas_combine(p, v, gg_op_min()); }
GG_INLINE int gg_atomic_max(int *p, int v) { return atomicMax(p, v); }
GG_INLINE unsigned gg_atomic_max(unsigned *p, unsigned v) { return atomicMax(p, v); }
GG_INLINE unsigned long long gg_atomic_max(unsigned long long *p, unsigned long long v) { return atomicMax(p, v); }
GG_INLINE long long gg_atomic_max(long long *p, long long v) { return gg_atomic_cas_combine(p, v, gg_op_max()); }
GG_INLINE float gg_atomic_min(float *p, float v) { return gg_atomic_cas_combine(p, v, gg_op_min()); }
GG_INLINE float gg_atomic_max(float *p, float v) { return gg_atomic_cas_combine(p, v, gg_op_max()); }
GG_INLINE double gg_atomic_min(double *p, double v) { return gg_atomic_cas_combine(p, v, gg_op_min()); }
GG_INLINE double gg_atomic_max(double *p, double v) { return gg_atomic_cas_combine(p, v, gg_op_max()); }

#if defined(GG_USE_HALF)
/* 16-bit floats: CAS on the aligned 32-bit word, computing in float. */
template <class F> GG_INLINE gg_f16 gg_atomic_cas_combine16(gg_f16 *p, gg_f16 v, F f)
{
  unsigned *w = (unsigned *)((size_t)p & ~(size_t)3);
  const unsigned shift = ((size_t)p & 2) ? 16 : 0;
  unsigned old = __hip_atomic_load(w, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT), assumed;
  do {
    assumed = old;
    unsigned short hb = (unsigned short)(assumed >> shift);
    gg_f16 cur;
    __builtin_memcpy(&cur, &hb, 2);
    gg_f16 nv = (gg_f16)f((float)cur, (float)v);
    unsigned short nb;
    __builtin_memcpy(&nb, &nv, 2);
    unsigned nw = (assumed & ~(0xffffu << shift)) | ((unsigned)nb << shift);
    old = atomicCAS(w, assumed, nw);
  } while (old != assumed);
  unsigned short ob = (unsigned short)(old >> shift);
  gg_f16 r;
  __builtin_memcpy(&r, &ob, 2);
  return r;
}
GG_INLINE gg_f16 gg_atomic_add(gg_f16 *p, gg_f16 v) { return gg_atomic_cas_combine16(p, v, gg_op_add()); }
GG_INLINE gg_f16 gg_atomic_min(gg_f16 *p, gg_f16 v) { return gg_atomic_cas_combine16(p, v, gg_op_min()); }
GG_INLINE gg_f16 gg_atomic_max(gg_f16 *p, gg_f16 v) { return gg_atomic_cas_combine16(p, v, gg_op_max()); }
#endif

/* ---- memory ordering ----
 * One helper per access the templates order (the CUDA prelude says
 * which and why); agent scope is CUDA's gpu scope. */
GG_INLINE unsigned gg_load_acquire_sys(const unsigned *p)
{
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
GG_INLINE unsigned long long gg_load_acquire_sys(const unsigned long long *p)
{
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
GG_INLINE void gg_store_release_sys(unsigned *p, unsigned v)
{
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}
GG_INLINE void gg_store_release_sys(unsigned long long *p, unsigned long long v)
{
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}
GG_INLINE unsigned long long gg_load_relaxed_sys(const unsigned long long *p)
{
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
GG_INLINE void gg_store_relaxed_sys(unsigned long long *p, unsigned long long v)
{
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
GG_INLINE unsigned gg_load_acquire_gpu(const unsigned *p)
{
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE unsigned long long gg_load_acquire_gpu(const unsigned long long *p)
{
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE unsigned long long gg_load_relaxed_gpu(const unsigned long long *p)
{
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE void gg_store_release_gpu(unsigned *p, unsigned v)
{
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE void gg_store_release_gpu(unsigned long long *p, unsigned long long v)
{
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}
/* Take a ticket: add 1, return the count before (acq_rel at agent scope:
 * the cuda prelude says why). */
GG_INLINE unsigned gg_ticket_take(unsigned *p)
{
  return __hip_atomic_fetch_add(p, 1u, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
}
GG_INLINE unsigned long long gg_ticket_take(unsigned long long *p)
{
  return __hip_atomic_fetch_add(p, 1ull, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
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
/* s_sleep counts units of 64 clocks; close enough for a spin back-off. */
GG_INLINE void gg_nanosleep(unsigned ns) { __builtin_amdgcn_s_sleep(1); }
/* wall_clock64 ticks at a device-specific rate (100 MHz on CDNA): the
 * runtime converts; here it only measures timeouts in ticks. */
GG_INLINE unsigned long long gg_clock_ns() { return wall_clock64() * 10ull; }
/* Whether the host set the mailbox's abort word (gg_protocol.h): every
 * wait of a persistent kernel looks at it now and then. */
GG_INLINE bool gg_host_aborted(const char *mbox)
{
  return gg_load_relaxed_sys((const unsigned long long *)(mbox + GG_MBOX_ABORT_OFF)) != 0;
}

/* ---- grid barriers ----
 * Sense-reversing barrier on two workspace words {count, generation};
 * see the CUDA prelude.  hiprtc has no grid group, so cooperative
 * kernels use this one too (launched with hipLaunchCooperativeKernel, so
 * every block is co-resident). */
GG_INLINE void gg_grid_barrier(unsigned *bar)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned gen = gg_load_acquire_gpu(&bar[1]);
    __threadfence();
    if (atomicAdd(&bar[0], 1u) == gridDim.x - 1) {
      atomicExch(&bar[0], 0u);
      __threadfence();
      atomicAdd(&bar[1], 1u);
    } else {
      while (gg_load_acquire_gpu(&bar[1]) == gen)
        __builtin_amdgcn_s_sleep(1);
    }
    __threadfence();
  }
  __syncthreads();
}
GG_INLINE void gg_grid_sync(unsigned *bar) { gg_grid_barrier(bar); }

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

/* ---- team-level reduction over a (pseudo-)block: see the CUDA prelude ---- */
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
  gg_sync(g);
  return r;
}
/* ---- end of prelude ---- */
