template <class gg_Pre = gg_no_pre> /* a fused for stage (reduce_fold.cuh) */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g, const gg_Pre &gg_pre = gg_Pre())
{
  acc a = thread_fold(args, g, gg_pre);
  a = block_reduce(a, g);
  finish(args, g, a);
}
#undef GG_COMBINE
