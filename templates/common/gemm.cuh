/* gemm {{NAME}}: {{GEMM_C}} = alpha op({{GEMM_A}}) op({{GEMM_B}}) + beta {{GEMM_C}},
 * {{GEMM_M}} x {{GEMM_N}} x {{GEMM_K}}, tiled: a (virtual) block computes one
 * {{GEMM_TM}} x {{GEMM_TN}} tile of C of one batch item (the plan's tile), K in steps of
 * {{GEMM_TK}}, with a cuBLASDx (MathDx) block GEMM of the tile's size accumulating
 * in registers.  Work unit u = item x {{GEMM_TILES}} tiles + tile; a block takes
 * units g.block, g.block + g.nblocks, ...: any grid - one block per unit
 * (classic), or the fixed one of a persistent kernel - covers them.  With
 * split_k, groups of {{GEMM_SPLIT}} blocks take each unit, a range of K each.  One K
 * step of A and B is staged in shared memory ({{GEMM_SMEM}} bytes, the
 * plan's); SM<__CUDA_ARCH__> is the arch this source is compiled for.
 * Elements: cuBLASDx's value types of the precisions and the type (real or
 * complex); a complex view holds (re, im) pairs of its precision, the
 * layout of cuBLASDx's complex<T>, so its pointer is read as one to that.
 * The kernel's body is a tail piece: gemm_tail.cuh, or gemm_reduce_tail.cuh
 * when the post statements contribute() into a result. */
using gg_gemm = decltype(
    cublasdx::Size<{{GEMM_TM}}, {{GEMM_TN}}, {{GEMM_TK}}>() +
    cublasdx::Precision<{{GEMM_PA}}, {{GEMM_PA}}, {{GEMM_PC}}>() +
    cublasdx::Type<{{GEMM_TYPE}}>() + cublasdx::Function<cublasdx::function::MM>() +
    cublasdx::Arrangement<{{GEMM_ARR_A}}, {{GEMM_ARR_B}}, cublasdx::row_major>() +
    cublasdx::Alignment<16, 16, 16>() + cublasdx::BlockDim<{{BLOCK}}>() + cublasdx::Block() +
    cublasdx::SM<__CUDA_ARCH__>());
static_assert(cublasdx::get_shared_storage_size_ab<gg_gemm>(
                  gg_gemm::suggest_layout_smem_a().layout,
                  gg_gemm::suggest_layout_smem_b().layout) <= {{GEMM_SMEM}},
              "gpugen's plan gives gemm {{NAME}} less shared memory than cublasdx needs");

/* The post statements ({{GEMM_POST}}: 1 when the kernel has them) on one
 * element of C, in the thread that holds it, after alpha AB + beta C and
 * before the store: they see item, i, j and the value re, im (in
 * gg_gemm_num's real type; a real C's im is a scratch 0); contribute(...)
 * folds into the thread's own accumulator gg_mine (a reducing kernel's
 * gg_acc; an int nobody reads otherwise).  A lambda, so that `return;`
 * ends one element's statements.  Only the statements are inside the
 * views' macros: a view may be called anything the workload allows. */
template <class gg_R, class gg_M>
__device__ __forceinline__ void gg_gemm_post(const {{ARGS_T}} &args, long long item, int i, int j,
                                             gg_R &re, gg_R &im, gg_M &gg_mine)
{
  {{UNPACK}}
{{VIEW_MACROS}}
#define contribute(...) gg_contribute(gg_mine, __VA_ARGS__)
  [&]() {
{{BODY}}
  }();
#undef contribute
{{VIEW_UNDEFS}}
}

/* Every unit (tile of a batch item) of block g.block; gg_mine: what the
 * post statements contribute() to (an int without into).  Its
 * namespaces are named from the global one (::cute, ::cublasdx): the
 * views unpacked here are locals, and one may be called cute. */
template <class gg_M>
__device__ __forceinline__ void gg_gemm_units(const {{ARGS_T}} &args, const gg_grid &g,
                                              gg_M &gg_mine)
{
  {{UNPACK}}
  using GEMM = gg_gemm;
  using TA = typename GEMM::a_value_type;
  using TC = typename GEMM::c_value_type;
  constexpr int gg_m = {{GEMM_M}}, gg_n = {{GEMM_N}}, gg_k = {{GEMM_K}};
  constexpr int gg_tm = {{GEMM_TM}}, gg_tn = {{GEMM_TN}}, gg_tk = {{GEMM_TK}};
  constexpr int gg_tiles_n = {{GEMM_TILES_N}}, gg_tiles = {{GEMM_TILES}};
  constexpr bool gg_trans_a = {{GEMM_TRANS_A}}, gg_trans_b = {{GEMM_TRANS_B}};
  const long long gg_units = {{LEAGUE}} * gg_tiles;
  /* split_k = gg_split > 1 (gen/gemm_plan.c): consecutive blocks in groups
     of gg_split take the same units, block s of a group K's steps
     [s steps / split, (s + 1) steps / split), and meet in gg_split_meet
     (gemm_panel.cuh).  The blocks past the last whole group take none;
     on fewer blocks than a group every block runs all of K itself. */
  constexpr int gg_split = {{GEMM_SPLIT}}, gg_steps = {{GEMM_STEPS}};
  const bool gg_split_on = gg_split > 1 && g.nblocks >= gg_split;
  const long long gg_workers = gg_split_on ? g.nblocks / gg_split : g.nblocks;
  const long long gg_worker = gg_split_on ? g.block / gg_split : g.block;
  const int gg_s = gg_split_on ? (int)(g.block % gg_split) : 0;
  const int gg_klo = gg_split_on ? gg_s * gg_steps / gg_split * gg_tk : 0;
  const int gg_khi = gg_split_on ? (gg_s + 1) * gg_steps / gg_split * gg_tk : gg_steps * gg_tk;
  char *gg_split_ws = {{GEMM_SPLIT_WS}};
  /* the block is cuBLASDx's BlockDim and all of it (whole_block): the
     panel loads below have compile-time trip counts, so they unroll and
     every thread issues all its loads before its first store */
  constexpr int gg_nt = {{BLOCK}};
  /* elements per load: the plan's (16 bytes where the rows allow it) */
  constexpr int gg_wa = {{GEMM_VEC_A}}, gg_wb = {{GEMM_VEC_B}};
  /* whole panels, all 16-byte aligned (the plan's): copied by cuBLASDx,
     and none of the element loads below */
  constexpr bool gg_copy_a = {{GEMM_COPY_A}}, gg_copy_b = {{GEMM_COPY_B}};
  constexpr int gg_ja = gg_copy_a ? 0 : (gg_tm * gg_tk / gg_wa + gg_nt - 1) / gg_nt;
  constexpr int gg_jb = gg_copy_b ? 0 : (gg_tk * gg_tn / gg_wb + gg_nt - 1) / gg_nt;
  const TC gg_alpha = gg_gemm_num<TC>::make({{GEMM_ALPHA}}, {{GEMM_ALPHA_IM}});
  const TC gg_beta = gg_gemm_num<TC>::make({{GEMM_BETA}}, {{GEMM_BETA_IM}});
  auto [gg_sa, gg_sb] = ::cublasdx::slice_shared_memory_ab<GEMM>(
      g.smem, GEMM::suggest_layout_smem_a().layout, GEMM::suggest_layout_smem_b().layout);
  auto gg_ta = ::cublasdx::make_tensor(gg_sa, GEMM::suggest_layout_smem_a());
  auto gg_tb = ::cublasdx::make_tensor(gg_sb, GEMM::suggest_layout_smem_b());
  auto gg_part = GEMM::suggest_partitioner();
  for (long long gg_u = gg_worker; gg_u < gg_units && gg_worker < gg_workers; gg_u += gg_workers) {
    const long long gg_item = gg_u / gg_tiles;
    const int gg_tile = (int)(gg_u % gg_tiles);
    const int gg_r0 = gg_tile / gg_tiles_n * gg_tm, gg_c0 = gg_tile % gg_tiles_n * gg_tn;
    /* views are row-major [batch][rows][cols]: an item is one contiguous matrix */
    const TA *gg_a = reinterpret_cast<const TA *>({{GEMM_A}}) + gg_item * ((long long)gg_m * gg_k);
    const TA *gg_b = reinterpret_cast<const TA *>({{GEMM_B}}) + gg_item * ((long long)gg_k * gg_n);
    TC *gg_c = reinterpret_cast<TC *>({{GEMM_C}}) + gg_item * ((long long)gg_m * gg_n);
    auto gg_acc = gg_part.make_accumulator_fragment();
    ::cublasdx::clear(gg_acc);
    for (int gg_k0 = gg_klo; gg_k0 < gg_khi; gg_k0 += gg_tk) {
      /* A's tm x tk panel, B's tk x tn panel.  A whole panel: cuBLASDx's
         copy (cp.async in 16-byte pieces into the swizzled shared layout,
         waited for below).  Else: outside the matrices (edge
         tiles, the K pad) zeros, which add nothing.  Load l of a panel
         (its elements l w .. l w + w - 1, w the plan's elements per load)
         is thread l % block's: consecutive threads take consecutive
         pieces of the stored rows (coalesced loads); each piece then goes
         to shared memory element by element, along the stored row. */
      const auto gg_at_a = [&](int j) {
        return gg_panel_at((g.thread + j * gg_nt) * gg_wa, gg_tm, gg_tk, gg_trans_a, gg_r0, gg_k0,
                           gg_m, gg_k);
      };
      const auto gg_at_b = [&](int j) {
        return gg_panel_at((g.thread + j * gg_nt) * gg_wb, gg_tk, gg_tn, gg_trans_b, gg_k0, gg_c0,
                           gg_k, gg_n);
      };
      if constexpr (gg_copy_a)
        ::cublasdx::copy<GEMM, gg_wa * sizeof(TA)>(
            gg_panel_whole<gg_tm, gg_tk, gg_trans_a, gg_m, gg_k>(gg_a, gg_r0, gg_k0), gg_ta);
      if constexpr (gg_copy_b)
        ::cublasdx::copy<GEMM, gg_wb * sizeof(TA)>(
            gg_panel_whole<gg_tk, gg_tn, gg_trans_b, gg_k, gg_n>(gg_b, gg_k0, gg_c0), gg_tb);
      gg_panel_vec<TA, gg_wa> gg_va[gg_ja > 0 ? gg_ja : 1];
      gg_panel_vec<TA, gg_wb> gg_vb[gg_jb > 0 ? gg_jb : 1];
#pragma unroll
      for (int gg_j = 0; gg_j < gg_ja; gg_j++)
        gg_va[gg_j] = gg_panel_load<TA, gg_wa>(gg_a, gg_at_a(gg_j));
#pragma unroll
      for (int gg_j = 0; gg_j < gg_jb; gg_j++)
        gg_vb[gg_j] = gg_panel_load<TA, gg_wb>(gg_b, gg_at_b(gg_j));
      /* every load above is issued before the first store below */
#pragma unroll
      for (int gg_j = 0; gg_j < gg_ja; gg_j++)
        gg_panel_store(gg_ta, gg_va[gg_j], gg_at_a(gg_j), gg_trans_a);
#pragma unroll
      for (int gg_j = 0; gg_j < gg_jb; gg_j++)
        gg_panel_store(gg_tb, gg_vb[gg_j], gg_at_b(gg_j), gg_trans_b);
      if constexpr (gg_copy_a || gg_copy_b)
        ::cublasdx::copy_wait(); /* the copies landed, then __syncthreads */
      else
        __syncthreads();
      /* gg_acc += A panel x B panel; op "c" conjugates a panel's elements
         as cuBLASDx loads them (its conjugate load op), else identity */
      GEMM().execute(gg_ta, gg_tb, gg_acc, {{GEMM_LOAD_A}}{}, {{GEMM_LOAD_B}}{});
      /* the next step (unit, or stage of a frame) overwrites the panels */
      __syncthreads();
    }
    if constexpr (gg_split > 1) {
      if (gg_split_on &&
          !gg_split_meet<TC, gg_tn>(gg_split_ws + (size_t)gg_worker * gg_split * {{GEMM_SPLIT_SLOT}},
                                    gg_split, gg_s, {{GEMM_SPLIT_SLOT}}, {{GEMM_SPLIT_HEAD}},
                                    gg_part, gg_acc))
        continue; /* another block of the group stores this tile */
    }
    /* alpha AB + beta C into the tile, only inside C; beta 0 (or -0):
       C is not read (BLAS: NaN or garbage in C must not leak in).  All of
       a thread's reads of C come before its first write. */
    if (gg_part.is_thread_active()) {
      constexpr int gg_nacc = decltype(::cute::size(gg_acc))::value; /* static: ::cute::Int */
      TC gg_old[gg_nacc];
      const bool gg_read_c = gg_gemm_num<TC>::nonzero(gg_beta);
#pragma unroll
      for (int gg_i = 0; gg_i < gg_nacc; gg_i++) {
        const auto gg_rc = gg_part.map_fragment_index(gg_i);
        const int gg_row = gg_r0 + (int)::cute::get<0>(gg_rc);
        const int gg_col = gg_c0 + (int)::cute::get<1>(gg_rc);
        const bool gg_in = gg_part.is_index_in_bounds(gg_i) && gg_row < gg_m && gg_col < gg_n;
        gg_old[gg_i] = gg_read_c && gg_in ? gg_c[gg_row * gg_n + gg_col] : TC{};
      }
#pragma unroll
      for (int gg_i = 0; gg_i < gg_nacc; gg_i++) {
        const auto gg_rc = gg_part.map_fragment_index(gg_i);
        const int gg_row = gg_r0 + (int)::cute::get<0>(gg_rc);
        const int gg_col = gg_c0 + (int)::cute::get<1>(gg_rc);
        if (gg_part.is_index_in_bounds(gg_i) && gg_row < gg_m && gg_col < gg_n) {
          TC gg_v = gg_read_c ? gg_alpha * gg_acc(gg_i) + gg_beta * gg_old[gg_i]
                              : gg_alpha * gg_acc(gg_i);
          if constexpr ({{GEMM_POST}}) {
            typename gg_gemm_num<TC>::real gg_re = gg_gemm_num<TC>::re(gg_v),
                                           gg_im = gg_gemm_num<TC>::im(gg_v);
            gg_gemm_post(args, gg_item, gg_row, gg_col, gg_re, gg_im, gg_mine);
            gg_v = gg_gemm_num<TC>::make(gg_re, gg_im);
          }
          gg_c[gg_row * gg_n + gg_col] = gg_v;
        }
      }
    }
  }
}
