GG_INLINE acc shfl_down(const acc &a, int delta)
{
  acc r;
#pragma unroll
  for (int k = 0; k < NV; ++k) r.v[k] = gg_shfl_down(a.v[k], delta);
  return r;
}
/* For custom combiners merged with a compare-and-swap loop. */
struct combine_op {
  template <class T> GG_INLINE T operator()(T a, T b) const { return GG_COMBINE(a, b); }
};

GG_INLINE long long work(const {{ARGS_T}} &args)
{
  {{UNPACK}}
  return {{WORK}};
}

/* The value(s) of element gg_lin of the range. */
GG_INLINE acc value_at(const {{ARGS_T}} &args, long long gg_lin)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  {{INDEX_DECODE}}
  gg_acc gg_a;
  gg_a.v[0] = (acc_t)(
{{VALUE}}
  );
  {{MORE_VALUES}}
{{VIEW_UNDEFS}}
  return gg_a;
}

/* Phase 1: each thread folds its share of the range into one accumulator,
 * striding by the whole virtual grid so any grid covers any size.  Index
 * i goes to thread i mod (blocks x threads), as in a for kernel of vector
 * 1, so a frame may run such a for stage inside the fold (gen/frame_deps.c:
 * fusion): gg_pre(i) runs its body at i just before value_at(i) reads what
 * it wrote, in the same thread (the compiler then takes the values from
 * registers).  gg_no_pre (the prelude): a reduction on its own. */
template <class gg_Pre>
GG_INLINE acc thread_fold(const {{ARGS_T}} &args, const gg_grid &g, const gg_Pre &gg_pre)
{
  const long long gg_n = work(args);
  const long long gg_tid = (long long)g.block * g.nthreads + g.thread;
  const long long gg_nthr = (long long)g.nblocks * g.nthreads;
  acc gg_acc_ = identity();
#if {{RVEC}} > 1
  if constexpr (gg_Pre::none) {
    {{UNPACK}}
    /* A plain read x(i): 16-byte vector loads.  Elements before the first
     * 16-byte boundary (head) and after the last whole vector (tail) are
     * read one by one, so any size and any offset of the view work. */
    struct alignas(16) gg_vec_t { elem_t gg_e[VEC]; };
    const elem_t *gg_src = {{VEC_PTR}};
    long long gg_head = (long long)(((16 - ((size_t)gg_src & 15)) & 15) / sizeof(elem_t));
    if (gg_head > gg_n) gg_head = gg_n;
    const long long gg_nvec = (gg_n - gg_head) / VEC;
    const gg_vec_t *gg_vsrc = (const gg_vec_t *)(gg_src + gg_head);
    if (gg_tid < gg_head) gg_acc_.v[0] = GG_COMBINE(gg_acc_.v[0], (acc_t)gg_src[gg_tid]);
    long long gg_i = gg_tid;
    /* UNROLL independent 16-byte loads in flight before the first use:
     * what keeps HBM busy (latency x bandwidth needs ~40 KB per SM). */
    for (; gg_i + (UNROLL - 1) * gg_nthr < gg_nvec; gg_i += UNROLL * gg_nthr) {
      gg_vec_t gg_r[UNROLL];
#pragma unroll
      for (int gg_u = 0; gg_u < UNROLL; ++gg_u) gg_r[gg_u] = gg_vsrc[gg_i + gg_u * gg_nthr];
#pragma unroll
      for (int gg_u = 0; gg_u < UNROLL; ++gg_u)
#pragma unroll
        for (int gg_e = 0; gg_e < VEC; ++gg_e) gg_acc_.v[0] = GG_COMBINE(gg_acc_.v[0], (acc_t)gg_r[gg_u].gg_e[gg_e]);
    }
    for (; gg_i < gg_nvec; gg_i += gg_nthr) {
      const gg_vec_t gg_r = gg_vsrc[gg_i];
#pragma unroll
      for (int gg_e = 0; gg_e < VEC; ++gg_e) gg_acc_.v[0] = GG_COMBINE(gg_acc_.v[0], (acc_t)gg_r.gg_e[gg_e]);
    }
    const long long gg_tail = gg_head + gg_nvec * VEC;
    if (gg_tid < gg_n - gg_tail) gg_acc_.v[0] = GG_COMBINE(gg_acc_.v[0], (acc_t)gg_src[gg_tail + gg_tid]);
  } else /* a fused stage runs per index: the scalar loop */
#endif
  {
    /* Any value expression: scalar loads, UNROLL elements in flight. */
    long long gg_i = gg_tid;
    for (; gg_i + (UNROLL - 1) * gg_nthr < gg_n; gg_i += UNROLL * gg_nthr) {
      acc gg_r[UNROLL];
#pragma unroll
      for (int gg_u = 0; gg_u < UNROLL; ++gg_u) {
        gg_pre(gg_i + gg_u * gg_nthr);
        gg_r[gg_u] = value_at(args, gg_i + gg_u * gg_nthr);
      }
#pragma unroll
      for (int gg_u = 0; gg_u < UNROLL; ++gg_u) combine(gg_acc_, gg_r[gg_u]);
    }
    for (; gg_i < gg_n; gg_i += gg_nthr) {
      gg_pre(gg_i);
      combine(gg_acc_, value_at(args, gg_i));
    }
  }
  return gg_acc_;
}

