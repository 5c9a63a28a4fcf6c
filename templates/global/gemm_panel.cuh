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
