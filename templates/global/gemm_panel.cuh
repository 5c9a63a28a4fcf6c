/* The gemm pattern's panel loads and stores, once per source at file
 * scope (gen/source.c renders them before the first gemm kernel). */

/* Element i of a pr x pc panel whose corner is (r0, c0) in an lr x lc
 * matrix stored [lr][lc], or [lc][lr] when trans (op "t": A stored K x M,
 * B N x K): its row and column in the panel, whether it is in the panel
 * and inside the matrix, and its offset in the stored matrix.  Row-major
 * storage walks the panel by rows, transposed storage by columns, so
 * consecutive i are consecutive in memory either way. */
struct gg_panel_elem {
  int r, c;
  bool panel, in;
  long long at;
};
__device__ __forceinline__ gg_panel_elem gg_panel_at(int i, int pr, int pc, bool trans, int r0,
                                                   int c0, int lr, int lc)
{
  gg_panel_elem e;
  e.r = trans ? i % pr : i / pc;
  e.c = trans ? i / pr : i % pc;
  e.panel = i < pr * pc;
  e.in = e.panel && r0 + e.r < lr && c0 + e.c < lc;
  e.at = trans ? (long long)(c0 + e.c) * lr + (r0 + e.r) : (long long)(r0 + e.r) * lc + (c0 + e.c);
  return e;
}

/* V consecutive elements of a stored row, one load (the plan's V makes it
 * 16 bytes, aligned, all inside the matrix or all outside); zeros outside */
template <class T, int V> struct alignas(sizeof(T) * V) gg_panel_vec {
  T v[V];
};
template <class T, int V>
__device__ __forceinline__ gg_panel_vec<T, V> gg_panel_load(const T *p, const gg_panel_elem &e)
{
  if (e.in) return *reinterpret_cast<const gg_panel_vec<T, V> *>(p + e.at);
  gg_panel_vec<T, V> z;
  for (int q = 0; q < V; q++) z.v[q] = T{};
  return z;
}
/* A whole PR x PC panel (every element inside the matrix) of a stored
 * [LR][LC] matrix, [LC][LR] when TRANS, whose corner is (r0, c0): a cute
 * tensor of global memory with the panel's static shape and strides,
 * which cuBLASDx's copy takes (its vectors follow the strides) */
template <int PR, int PC, bool TRANS, int LR, int LC, class T>
__device__ __forceinline__ auto gg_panel_whole(const T *p, int r0, int c0)
{
  using ::cute::Int;
  const auto shape = ::cute::make_shape(Int<PR>{}, Int<PC>{});
  if constexpr (TRANS) {
    const auto layout = ::cute::make_layout(shape, ::cute::make_stride(Int<1>{}, Int<LR>{}));
    return ::cute::make_tensor(::cute::make_gmem_ptr(p + (long long)c0 * LR + r0), layout);
  } else {
    const auto layout = ::cute::make_layout(shape, ::cute::make_stride(Int<LC>{}, Int<1>{}));
    return ::cute::make_tensor(::cute::make_gmem_ptr(p + (long long)r0 * LC + c0), layout);
  }
}

/* A loaded piece into the shared-memory panel t (a cute tensor: a view),
 * element by element along the stored row; nothing for a piece past the
 * panel's end */
template <class Tensor, class T, int V>
__device__ __forceinline__ void gg_panel_store(Tensor t, const gg_panel_vec<T, V> &v,
                                               const gg_panel_elem &e, bool trans)
{
  if (!e.panel) return;
#pragma unroll
  for (int q = 0; q < V; q++) t(e.r + (trans ? q : 0), e.c + (trans ? 0 : q)) = v.v[q];
}

/* alpha and beta as C's type T from their real and imaginary parts (the
 * plan's C expressions; 0 for a real type), and whether beta is nonzero
 * (beta 0 leaves C unread).  real: the type a gemm's post statements see
 * an element's parts in, C's precision (f32 or f64: a gemm of f16 or
 * bf16 inputs has an f32 C) - and re, im, make between it and the
 * element. */
template <class T> struct gg_gemm_num {
  using real = T;
  static __device__ __forceinline__ T make(T re, T) { return re; }
  static __device__ __forceinline__ bool nonzero(T x) { return x != T(0); }
  static __device__ __forceinline__ real re(T x) { return x; }
  static __device__ __forceinline__ real im(T) { return real(0); }
};
template <class R> struct gg_gemm_num<cublasdx::complex<R>> {
  using real = R;
  static __device__ __forceinline__ cublasdx::complex<R> make(R re, R im) { return {re, im}; }
  static __device__ __forceinline__ bool nonzero(cublasdx::complex<R> x)
  {
    return x.real() != R(0) || x.imag() != R(0);
  }
  static __device__ __forceinline__ real re(cublasdx::complex<R> x) { return x.real(); }
  static __device__ __forceinline__ real im(cublasdx::complex<R> x) { return x.imag(); }
};

/* split_k (gen/gemm_plan.c): the S blocks of one tile of one batch item
 * meet here, each with its partial sum acc over its range of K.  Block s
 * of the group has slot s (slot_bytes each, from group): head bytes of
 * words (the plan's: its flag, and in slot 0 the group's ticket), then
 * its partial, element (i, j) of the tile at i x TN + j, as the real
 * scalars of C's type.  True in the block that arrived last, whose
 * acc then holds the S partials summed in split order - the same sum
 * whichever block came last; the others go on to their next tile.
 * The order of it, as the reductions' ticket (reduce_finish_ticket.cuh):
 *   - thread 0 waits, with acquire polls, until its slot's flag is 0: the
 *     last arriver of the group's previous tile clears it, with a release
 *     store, after reading the slot (a block may run a tile ahead of the
 *     others; in a fresh workspace every flag is 0);
 *   - __syncthreads, the block's partial into its slot, __syncthreads;
 *   - thread 0 takes the group's ticket (in slot 0's second word) with an
 *     acq_rel RMW: a release of the whole block's slot (bar.sync, then
 *     cumulativity), and in the last arriver an acquire of every other
 *     block's;
 *   - the last arriver reads the slots (volatile: never a stale L1 line),
 *     __syncthreads, then thread 0 resets the ticket and releases the
 *     flags, the ticket first, so a block that sees its flag clear takes
 *     a ticket of the new tile.
 * A block waits here only for its group's last arriver of the tile
 * before, so for the other blocks of its group to have run that tile:
 * they must be on the device at once or be dispatched while it spins.
 * The grid of a classic launch is capped at the co-resident blocks (the
 * plan's cap_resident; the slots are sized for them), and a persistent
 * kernel's blocks are all resident. */
template <class TC, int TN, class Part, class Acc>
__device__ __forceinline__ bool gg_split_meet(char *group, int split, int s, unsigned slot_bytes,
                                              unsigned head, const Part &part, Acc &acc)
{
  using N = gg_gemm_num<TC>;
  using R = typename N::real;
  constexpr int nc = sizeof(TC) / sizeof(R); /* 2: complex */
  constexpr int nacc = decltype(::cute::size(acc))::value;
  __shared__ unsigned gg_split_last;
  char *mine = group + (size_t)s * slot_bytes;
  unsigned *flag = (unsigned *)mine, *ticket = (unsigned *)group + 1;
  if (threadIdx.x == 0) {
    while (gg_load_acquire_gpu(flag) != 0u) __nanosleep(32);
    *(volatile unsigned *)flag = 1u;
  }
  __syncthreads();
  const bool active = part.is_thread_active();
  if (active) {
    R *out = (R *)(mine + head);
#pragma unroll
    for (int i = 0; i < nacc; i++) {
      if (!part.is_index_in_bounds(i)) continue;
      const auto rc = part.map_fragment_index(i);
      const int e = ((int)::cute::get<0>(rc) * TN + (int)::cute::get<1>(rc)) * nc;
      out[e] = N::re(acc(i));
      if constexpr (nc == 2) out[e + 1] = N::im(acc(i));
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) gg_split_last = gg_ticket_take(ticket) == (unsigned)split - 1u;
  __syncthreads();
  if (!gg_split_last) return false; /* rewritten only after two more __syncthreads */
  if (active) {
#pragma unroll
    for (int i = 0; i < nacc; i++) {
      if (!part.is_index_in_bounds(i)) continue;
      const auto rc = part.map_fragment_index(i);
      const int e = ((int)::cute::get<0>(rc) * TN + (int)::cute::get<1>(rc)) * nc;
      R sum[nc];
      for (int q = 0; q < split; q++) {
        const volatile R *in = (const volatile R *)(group + (size_t)q * slot_bytes + head);
        for (int c = 0; c < nc; c++) {
          const R v = q == s ? (c ? N::im(acc(i)) : N::re(acc(i))) : in[e + c];
          sum[c] = q == 0 ? v : sum[c] + v;
        }
      }
      acc(i) = N::make(sum[0], sum[nc - 1]);
    }
  }
  __syncthreads(); /* every thread's reads of the slots before the flags' release */
  if (threadIdx.x == 0) {
    atomicExch(ticket, 0u);
    for (int q = 0; q < split; q++) gg_store_release_gpu((unsigned *)(group + (size_t)q * slot_bytes), 0u);
  }
  return true;
}
