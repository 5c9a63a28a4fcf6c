} /* namespace GG_NS_{{NAME}} */

__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g)
{
  using namespace GG_NS_{{NAME}};
  acc a = thread_fold(args, g);
  a = block_reduce(a, g);
  finish(args, g, a);
}
#undef GG_COMBINE
