/* ---- gpugen prelude: host emulation (tests/reduce only) ----------------
 * The CUDA prelude's names on host threads, so the reduce, scan and
 * tile_reduce templates run on a machine with no GPU: one std::thread per
 * GPU thread, every block of the grid at once; __syncthreads, warp
 * shuffles and the grid barrier are std::barriers; atomics are
 * std::atomic_ref.  Small grids only (a few hundred threads).  It checks
 * the templates' logic - barriers, shuffles, look-back, tickets - not
 * their speed, and not the GPU memory model.
 */
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <cstdint>

#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __restrict__ __restrict
#define GG_RESTRICT __restrict
#define GG_INLINE inline
#define GG_INF (INFINITY)
#define __trap() __builtin_trap()

/* The index decode of 2-D and 3-D ranges (as the CUDA prelude's). */
inline void gg_divmod(long long a, long long b, long long &q, long long &r)
{
  q = a / b;
  r = a - q * b;
}

struct gg_grid {
  unsigned block, nblocks;
  unsigned thread, nthreads;
  unsigned bar_id;
  char *smem;
};

/* What a reduction's fold runs before it reads index i (as the CUDA
 * prelude's): nothing here. */
struct gg_no_pre {
  static constexpr bool none = true;
  void operator()(long long) const {}
};

/* What each emulated thread knows about itself; set by the launcher. */
struct gg_emu_block {
  std::barrier<> *block_bar;
  std::barrier<> *group_bar[15]; /* the pseudo-blocks' named barriers, bar_id 1..15 */
  std::barrier<> *warp_bar[32];
  unsigned long long xchg[32][32]; /* shuffle exchange, per warp and lane */
  alignas(16) char smem[64 * 1024];
};
struct gg_emu_thread {
  unsigned block, nblocks, thread, nthreads;
  unsigned groups; /* pseudo-blocks per block (gg_emu_grid) */
  gg_emu_block *b;
  std::barrier<> *grid_bar;
  unsigned syncs; /* gg_sync calls this thread made */
};
inline thread_local gg_emu_thread gg_emu;

inline gg_grid gg_grid_hw()
{
  gg_grid g;
  g.block = gg_emu.block;
  g.nblocks = gg_emu.nblocks;
  g.thread = gg_emu.thread;
  g.nthreads = gg_emu.nthreads;
  g.bar_id = 0;
  g.smem = gg_emu.b->smem;
  return g;
}
/* The virtual grid of a persistent kernel (templates/cuda/persistent.cuh):
 * with groups > 1 each block's threads split into pseudo-blocks of
 * nthreads / groups (whole warps), each with its own shared memory and
 * its own barrier (bar_id 1 + group), as layouts thread_groups and hybrid
 * run them; with one group, the hardware grid. */
inline gg_grid gg_emu_grid()
{
  const unsigned groups = gg_emu.groups, gt = gg_emu.nthreads / groups, group = gg_emu.thread / gt;
  gg_grid g;
  g.block = gg_emu.block * groups + group;
  g.nblocks = gg_emu.nblocks * groups;
  g.thread = gg_emu.thread - group * gt;
  g.nthreads = gt;
  g.bar_id = groups > 1 ? 1 + group : 0;
  g.smem = gg_emu.b->smem + group * (sizeof gg_emu.b->smem / groups / 16 * 16);
  return g;
}
/* no programmatic dependent launch on host threads: launches are in order */
inline void gg_pdl_entry() {}
/* The (pseudo-)block's barrier, counted: the test checks that every
 * pseudo-block passes as many as the others (docs/internals.md). */
inline void gg_sync(const gg_grid &g)
{
  gg_emu.syncs++;
  (g.bar_id ? gg_emu.b->group_bar[g.bar_id - 1] : gg_emu.b->block_bar)->arrive_and_wait();
}

#define GG_WARP_SIZE 32
inline int gg_warp_size() { return 32; }
inline int gg_lane() { return gg_emu.thread & 31; }

/* Every lane of the warp must call: write, meet, read, meet. */
template <class T> inline T gg_emu_shfl(T v, unsigned src)
{
  static_assert(sizeof(T) <= 8, "shuffle of a word");
  const unsigned warp = gg_emu.thread / 32, lane = gg_emu.thread % 32;
  gg_emu_block *b = gg_emu.b;
  std::memcpy(&b->xchg[warp][lane], &v, sizeof v);
  b->warp_bar[warp]->arrive_and_wait();
  T r;
  std::memcpy(&r, &b->xchg[warp][src & 31], sizeof r);
  b->warp_bar[warp]->arrive_and_wait();
  return r;
}
template <class T> inline T gg_shfl_down(T v, int delta)
{
  const unsigned lane = gg_emu.thread % 32;
  return gg_emu_shfl(v, lane + delta < 32 ? lane + delta : lane);
}
template <class T> inline T gg_shfl_xor(T v, int mask) { return gg_emu_shfl(v, (gg_emu.thread % 32) ^ mask); }
template <class T> inline T gg_shfl(T v, int lane) { return gg_emu_shfl(v, (unsigned)lane); }

/* ---- atomics ---- */
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline unsigned atomicAdd(unsigned *p, unsigned v) { return std::atomic_ref<unsigned>(*p).fetch_add(v); }
inline unsigned gg_ticket_take(unsigned *p)
{
  return std::atomic_ref<unsigned>(*p).fetch_add(1u, std::memory_order_acq_rel);
}
/* A reduction's note for a persistent kernel's ack: no persistent kernels here. */
template <class T, class A> inline void gg_result_note(const gg_grid &, T *, const A &) {}
inline unsigned atomicExch(unsigned *p, unsigned v) { return std::atomic_ref<unsigned>(*p).exchange(v); }
inline unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v)
{
  std::atomic_ref<unsigned>(*p).compare_exchange_strong(cmp, v);
  return cmp;
}

template <class T, class F> inline T gg_atomic_cas_combine(T *p, T v, F f)
{
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (!a.compare_exchange_weak(old, f(old, v))) {
  }
  return old;
}
struct gg_op_add { template <class T> T operator()(T a, T b) const { return a + b; } };
struct gg_op_min { template <class T> T operator()(T a, T b) const { return b < a ? b : a; } };
struct gg_op_max { template <class T> T operator()(T a, T b) const { return a < b ? b : a; } };
struct gg_op_mul { template <class T> T operator()(T a, T b) const { return a * b; } };
template <class T> inline T gg_atomic_add(T *p, T v) { return gg_atomic_cas_combine(p, v, gg_op_add()); }
template <class T> inline T gg_atomic_min(T *p, T v) { return gg_atomic_cas_combine(p, v, gg_op_min()); }
template <class T> inline T gg_atomic_max(T *p, T v) { return gg_atomic_cas_combine(p, v, gg_op_max()); }

inline unsigned gg_load_acquire_gpu(const unsigned *p)
{
  return std::atomic_ref<unsigned>(*const_cast<unsigned *>(p)).load(std::memory_order_acquire);
}
inline void gg_store_release_gpu(unsigned *p, unsigned v)
{
  std::atomic_ref<unsigned>(*p).store(v, std::memory_order_release);
}

/* The device's 16-byte pair: two relaxed 8-byte atomics in some order,
 * which is what the device promises too (the scan's look-back). */
inline void gg_load2_volatile(const unsigned long long *p, unsigned long long w[2])
{
  for (int i = 0; i < 2; i++)
    w[i] = std::atomic_ref<unsigned long long>(*const_cast<unsigned long long *>(&p[i]))
               .load(std::memory_order_relaxed);
}
inline void gg_store2_volatile(unsigned long long *p, unsigned long long a, unsigned long long b)
{
  std::atomic_ref<unsigned long long>(p[0]).store(a, std::memory_order_relaxed);
  std::atomic_ref<unsigned long long>(p[1]).store(b, std::memory_order_relaxed);
}

/* The whole grid meets (cooperative kernels). */
inline void gg_grid_sync(unsigned *) { gg_emu.grid_bar->arrive_and_wait(); }
/* ---- end of prelude ---- */
