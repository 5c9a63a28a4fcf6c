/* gemm {{NAME}}: {{GEMM_C}} = alpha op({{GEMM_A}}) op({{GEMM_B}}) + beta {{GEMM_C}},
 * {{GEMM_M}} x {{GEMM_N}} x {{GEMM_K}}, one cublasdx (MathDx) block GEMM per batch item.  A (virtual)
 * block takes items g.block, g.block + g.nblocks, ...: any grid - one
 * block per item (classic), or the fixed one of a persistent kernel -
 * covers the batch.  Operands are staged in the block's shared memory
 * ({{GEMM_SMEM}} bytes, the plan's); SM<__CUDA_ARCH__> is the arch this
 * source is being compiled for. */
using gg_gemm_{{NAME}} = decltype(
    cublasdx::Size<{{GEMM_M}}, {{GEMM_N}}, {{GEMM_K}}>() +
    cublasdx::Precision<{{GEMM_TA}}, {{GEMM_TA}}, {{GEMM_TC}}>() +
    cublasdx::Type<cublasdx::type::real>() + cublasdx::Function<cublasdx::function::MM>() +
    cublasdx::Arrangement<{{GEMM_ARR_A}}, {{GEMM_ARR_B}}, cublasdx::row_major>() +
    cublasdx::Alignment<16, 16, 16>() + cublasdx::BlockDim<{{BLOCK}}>() + cublasdx::Block() +
    cublasdx::SM<__CUDA_ARCH__>());
static_assert(cublasdx::get_shared_storage_size<gg_gemm_{{NAME}}>() <= {{GEMM_SMEM}},
              "gpugen's plan gives gemm {{NAME}} less shared memory than cublasdx needs");

__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g)
{
  {{UNPACK}}
  using GEMM = gg_gemm_{{NAME}};
  using TA = {{GEMM_TA}};
  using TC = {{GEMM_TC}};
  const long long gg_batch = {{LEAGUE}};
  const TC gg_alpha = (TC)({{GEMM_ALPHA}}), gg_beta = (TC)({{GEMM_BETA}});
  auto [gg_sa, gg_sb, gg_sc] = cublasdx::slice_shared_memory<GEMM>(g.smem);
  auto gg_ta = cublasdx::make_tensor(gg_sa, GEMM::get_layout_smem_a());
  auto gg_tb = cublasdx::make_tensor(gg_sb, GEMM::get_layout_smem_b());
  auto gg_tc = cublasdx::make_tensor(gg_sc, GEMM::get_layout_smem_c());
  for (long long gg_item = g.block; gg_item < gg_batch; gg_item += g.nblocks) {
    /* views are row-major [batch][rows][cols]: an item is one contiguous matrix;
       the global side is only element-aligned */
    auto gg_ga = cublasdx::make_tensor({{GEMM_A}} + gg_item * ({{GEMM_M}} * {{GEMM_K}}),
                                       GEMM::get_layout_gmem_a());
    auto gg_gb = cublasdx::make_tensor({{GEMM_B}} + gg_item * ({{GEMM_K}} * {{GEMM_N}}),
                                       GEMM::get_layout_gmem_b());
    auto gg_gc = cublasdx::make_tensor({{GEMM_C}} + gg_item * ({{GEMM_M}} * {{GEMM_N}}),
                                       GEMM::get_layout_gmem_c());
    cublasdx::copy<GEMM, alignof(TA)>(gg_ga, gg_ta);
    cublasdx::copy<GEMM, alignof(TA)>(gg_gb, gg_tb);
    if (gg_beta != TC(0)) {
      cublasdx::copy<GEMM, alignof(TC)>(gg_gc, gg_tc);
    } else {
      /* beta 0: C is not read (BLAS: NaN or garbage in C must not leak in) */
      for (int gg_i = g.thread; gg_i < {{GEMM_M}} * {{GEMM_N}}; gg_i += g.nthreads)
        gg_sc[gg_i] = TC(0);
    }
    cublasdx::copy_wait(); /* waits for the copies and syncs the block */
    GEMM().execute(gg_alpha, gg_ta, gg_tb, gg_beta, gg_tc);
    __syncthreads();
    cublasdx::copy<GEMM, alignof(TC)>(gg_tc, gg_gc);
    /* the next item (or the next stage of a frame) overwrites shared memory */
    cublasdx::copy_wait();
  }
}
