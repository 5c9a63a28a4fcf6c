/* gemm {{NAME}}: the kernel's body - every unit of the block, nothing to
 * reduce. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  int gg_mine = 0; /* no contribute() without into */
  gg_gemm_units(args, g, gg_mine);
}
