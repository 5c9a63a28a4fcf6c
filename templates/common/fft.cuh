/* fft {{NAME}}: {{FFT_OUT}} = {{FFT_DIR}} {{FFT_TYPE}} FFT of {{FFT_IN}}, {{FFT_N}} points,
 * one cufftdx (MathDx) block FFT per batch item, unnormalized (like cuFFT).
 * A (virtual) block takes items g.block, g.block + g.nblocks, ...: any
 * grid - one block per item (classic), or the fixed one of a persistent
 * kernel - covers the batch.  Complex values are (re, im) pairs of
 * {{FFT_T}}: cufftdx's value_type has that layout.  The plan gave
 * {{BLOCK}} threads ({{FFT_N}} / {{FFT_EPT}} elements per thread) and
 * {{FFT_SMEM}} bytes of shared memory; the asserts check cufftdx agrees on the
 * arch this source is being compiled for. */
using gg_fft = decltype(
    cufftdx::Block() + cufftdx::Size<{{FFT_N}}>() + cufftdx::Type<cufftdx::fft_type::{{FFT_TYPE}}>() +
    cufftdx::Direction<cufftdx::fft_direction::{{FFT_DIR}}>() + cufftdx::Precision<{{FFT_T}}>() +
    cufftdx::ElementsPerThread<{{FFT_EPT}}>() + cufftdx::FFTsPerBlock<1>() +
    cufftdx::SM<__CUDA_ARCH__>());
/* A round trip's way back ({{FFT_ROUNDTRIP}}: 1 when the kernel has
 * between statements): the same FFT in direction {{FFT_BACK_DIR}}. */
using gg_fft_back = decltype(
    cufftdx::Block() + cufftdx::Size<{{FFT_N}}>() + cufftdx::Type<cufftdx::fft_type::{{FFT_TYPE}}>() +
    cufftdx::Direction<cufftdx::fft_direction::{{FFT_BACK_DIR}}>() + cufftdx::Precision<{{FFT_T}}>() +
    cufftdx::ElementsPerThread<{{FFT_EPT}}>() + cufftdx::FFTsPerBlock<1>() +
    cufftdx::SM<__CUDA_ARCH__>());
static_assert(gg_fft_back::shared_memory_size <= {{FFT_SMEM}} &&
                  gg_fft_back::storage_size == gg_fft::storage_size &&
                  gg_fft_back::stride == gg_fft::stride,
              "fft {{NAME}}: the way back differs from the transform in shared memory or layout");
static_assert(gg_fft::block_dim.x == {{BLOCK}} && gg_fft::block_dim.y == 1 &&
                  gg_fft::block_dim.z == 1,
              "gpugen's plan gives fft {{NAME}} another block than cufftdx's block_dim");
static_assert(gg_fft::shared_memory_size <= {{FFT_SMEM}} &&
                  gg_fft::input_length * sizeof(typename gg_fft::input_type) <= {{FFT_SMEM}} &&
                  gg_fft::output_length * sizeof(typename gg_fft::output_type) <= {{FFT_SMEM}},
              "gpugen's plan gives fft {{NAME}} less shared memory than cufftdx needs");
static_assert(gg_fft::input_length * sizeof(typename gg_fft::input_type) ==
                      {{FFT_IN_LEN}} * sizeof({{FFT_T}}) &&
                  gg_fft::output_length * sizeof(typename gg_fft::output_type) ==
                      {{FFT_OUT_LEN}} * sizeof({{FFT_T}}),
              "gpugen's view lengths for fft {{NAME}} differ from cufftdx's input / output");

/* The views path ({{FFT_PATH}} == 2: a view of layout left or stride):
 * item gg_item's element gg_i, part gg_c (0 re, 1 im; real data: 0), is
 * read and written with the view's own addressing, the V(...) macro of
 * every pattern's body; consecutive threads take consecutive elements.
 * Shared memory holds the item in natural order, complex element i at
 * 2i, 2i + 1, as cuFFTDx's shared-memory API wants it. */
__device__ __forceinline__ void gg_fft_load(const {{ARGS_T}} &args, const gg_grid &g,
                                            long long gg_item, {{FFT_T}} *gg_s)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  for (int gg_i = g.thread; gg_i < {{FFT_IN_ELEMS}}; gg_i += g.nthreads)
    for (int gg_c = 0; gg_c < {{FFT_IN_PARTS}}; gg_c++)
      gg_s[gg_i * {{FFT_IN_PARTS}} + gg_c] = {{FFT_IN_AT}};
{{VIEW_UNDEFS}}
}
__device__ __forceinline__ void gg_fft_store(const {{ARGS_T}} &args, const gg_grid &g,
                                             long long gg_item, const {{FFT_T}} *gg_s)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  for (int gg_i = g.thread; gg_i < {{FFT_OUT_ELEMS}}; gg_i += g.nthreads)
    for (int gg_c = 0; gg_c < {{FFT_OUT_PARTS}}; gg_c++)
      {{FFT_OUT_AT}} = gg_s[gg_i * {{FFT_OUT_PARTS}} + gg_c];
{{VIEW_UNDEFS}}
}

/* The kernel's statements on one element, in the thread that holds it:
 * gg_which 0, the between statements ({{FFT_ROUNDTRIP}}: 1 when it has
 * them) on the transform's result; 1, the post statements ({{FFT_POST}})
 * on the output.  They see item, i and the value re, im (a real output's
 * im is a scratch 0); contribute(...) folds into the thread's own
 * accumulator gg_mine (a reducing kernel's gg_acc; an int nobody reads
 * otherwise).  Lambdas, so that `return;` ends one element's statements. */
template <int gg_which, class gg_M>
__device__ __forceinline__ void gg_fft_stmts(const {{ARGS_T}} &args, long long item, int i,
                                             {{FFT_T}} &re, {{FFT_T}} &im, gg_M &gg_mine)
{
  {{UNPACK}}
{{VIEW_MACROS}}
#define contribute(...) gg_contribute(gg_mine, __VA_ARGS__)
  if constexpr (gg_which == 0) {
    [&]() {
{{FFT_BETWEEN}}
    }();
  } else {
    [&]() {
{{BODY}}
    }();
  }
#undef contribute
{{VIEW_UNDEFS}}
}


/* The post statements on the output in shared memory (the shared-memory
 * paths), natural order: element i at {{FFT_OUT_PARTS}} reals from
 * i * {{FFT_OUT_PARTS}}. */
template <class gg_M>
__device__ __forceinline__ void gg_fft_post_shared(const {{ARGS_T}} &args, const gg_grid &g,
                                                   long long gg_item, {{FFT_T}} *gg_s,
                                                   gg_M &gg_mine)
{
  for (int gg_i = g.thread; gg_i < {{FFT_OUT_ELEMS}}; gg_i += g.nthreads) {
    {{FFT_T}} *gg_v = gg_s + gg_i * {{FFT_OUT_PARTS}};
    {{FFT_T}} gg_im = {{FFT_OUT_PARTS}} == 2 ? gg_v[{{FFT_OUT_PARTS}} - 1] : ({{FFT_T}})0;
    gg_fft_stmts<1 /* post */>(args, gg_item, gg_i, gg_v[0], gg_im, gg_mine);
    if ({{FFT_OUT_PARTS}} == 2) gg_v[{{FFT_OUT_PARTS}} - 1] = gg_im;
  }
}

/* Every batch item of this (virtual) block, the post statements
 * contributing into gg_mine. */
template <class gg_M>
__device__ void gg_fft_items(const {{ARGS_T}} &args, const gg_grid &g, gg_M &gg_mine)
{
  {{UNPACK}}
  /* gg_ names only: the views' and scalars' names are the workload's */
  using gg_fft_desc = gg_fft;
  using gg_fft_real = {{FFT_T}};
  const long long gg_batch = {{LEAGUE}};
  /* the item's data, input then output, in natural order: element i of a
     complex array is the pair at 2i, 2i + 1 */
  using gg_fft_value = typename gg_fft_desc::value_type;
  gg_fft_real *gg_s = reinterpret_cast<gg_fft_real *>(g.smem);
  for (long long gg_item = g.block; gg_item < gg_batch; gg_item += g.nblocks) {
    /* contiguous views (layout right) are [batch][...]: an item is
       {{FFT_IN_LEN}} values in, {{FFT_OUT_LEN}} out */
    const gg_fft_real *gg_in = {{FFT_IN}} + gg_item * {{FFT_IN_LEN}}LL;
    gg_fft_real *gg_out = {{FFT_OUT}} + gg_item * {{FFT_OUT_LEN}}LL;
    if constexpr ({{FFT_PATH}} == 0) {
      /* c2c: cuFFTDx's register layout is natural order with a stride of
         the FFT's threads (element t + e * stride in register e of thread
         t, in and out), so a warp reads and writes 32 consecutive complex
         values straight from and to global memory: no staging through
         shared memory, and its ept loads are in flight together.  An
         array's base is 256-byte aligned and an item a whole number of
         complex values, so the complex loads are aligned. */
      gg_fft_value gg_r[gg_fft_desc::storage_size];
      const gg_fft_value *gg_src = reinterpret_cast<const gg_fft_value *>(gg_in);
      for (unsigned gg_e = 0; gg_e < gg_fft_desc::input_ept; gg_e++) {
        const unsigned gg_i = g.thread + gg_e * gg_fft_desc::stride;
        if (gg_i < gg_fft_desc::input_length) gg_r[gg_e] = gg_src[gg_i];
      }
      /* in place is safe: every load above is done before the first
         exchange barrier inside execute, every store below after the last */
      gg_fft_desc().execute(gg_r, g.smem);
      if constexpr ({{FFT_ROUNDTRIP}}) {
        /* the between statements on the result in registers (natural
           order with the same stride), then the way back: the data never
           leaves the registers.  The barrier: the way back exchanges
           through the shared memory the transform's last step read. */
        for (unsigned gg_e = 0; gg_e < gg_fft_desc::output_ept; gg_e++) {
          const unsigned gg_i = g.thread + gg_e * gg_fft_desc::stride;
          if (gg_i >= gg_fft_desc::output_length) continue;
          gg_fft_real *gg_v = reinterpret_cast<gg_fft_real *>(&gg_r[gg_e]);
          gg_fft_stmts<0 /* between */>(args, gg_item, (int)gg_i, gg_v[0], gg_v[1], gg_mine);
        }
        __syncthreads();
        gg_fft_back().execute(gg_r, g.smem);
      }
      gg_fft_value *gg_dst = reinterpret_cast<gg_fft_value *>(gg_out);
      for (unsigned gg_e = 0; gg_e < gg_fft_desc::output_ept; gg_e++) {
        const unsigned gg_i = g.thread + gg_e * gg_fft_desc::stride;
        if (gg_i >= gg_fft_desc::output_length) continue;
        if constexpr ({{FFT_POST}}) { /* the value in registers: no extra pass */
          gg_fft_real *gg_v = reinterpret_cast<gg_fft_real *>(&gg_r[gg_e]);
          gg_fft_stmts<1 /* post */>(args, gg_item, (int)gg_i, gg_v[0], gg_v[1], gg_mine);
        }
        gg_dst[gg_i] = gg_r[gg_e];
      }
    } else {
      /* through shared memory (cuFFTDx's shared-memory API).  r2c / c2r
         on contiguous views ({{FFT_PATH}} == 1): loaded and stored
         coalesced whatever its register layout for real data, element i
         of a complex array the pair at 2i, 2i + 1; other layouts (2):
         element by element at the views' addresses.  In place is safe:
         every load is done before the barrier, every store after the
         transform's last. */
      if constexpr ({{FFT_PATH}} == 1) {
        for (int gg_i = g.thread; gg_i < {{FFT_IN_LEN}}; gg_i += g.nthreads)
          gg_s[gg_i] = gg_in[gg_i];
      } else {
        gg_fft_load(args, g, gg_item, gg_s);
      }
      __syncthreads();
      /* reads the input from g.smem, exchanges through it, writes the
         output back (its own barriers in between) */
      gg_fft_desc().execute(reinterpret_cast<gg_fft_value *>(g.smem));
      __syncthreads(); /* every thread's part of the output is in g.smem */
      if constexpr ({{FFT_ROUNDTRIP}}) { /* c2c: N complex values in natural order */
        for (int gg_i = g.thread; gg_i < {{FFT_N}}; gg_i += g.nthreads)
          gg_fft_stmts<0 /* between */>(args, gg_item, gg_i, gg_s[2 * gg_i], gg_s[2 * gg_i + 1], gg_mine);
        __syncthreads();
        gg_fft_back().execute(reinterpret_cast<gg_fft_value *>(g.smem));
        __syncthreads();
      }
      if constexpr ({{FFT_POST}}) {
        /* element by element; the stores below take other elements */
        gg_fft_post_shared(args, g, gg_item, gg_s, gg_mine);
        __syncthreads();
      }
      if constexpr ({{FFT_PATH}} == 1) {
        for (int gg_i = g.thread; gg_i < {{FFT_OUT_LEN}}; gg_i += g.nthreads)
          gg_out[gg_i] = gg_s[gg_i];
      } else {
        gg_fft_store(args, g, gg_item, gg_s);
      }
    }
    /* the next item (or the next stage of a frame) overwrites shared memory */
    __syncthreads();
  }
}
