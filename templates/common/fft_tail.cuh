/* fft {{NAME}}: the kernel's body - every item of the block, nothing
 * to reduce. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  int gg_mine = 0; /* no contribute() without into */
  gg_fft_items(args, g, gg_mine);
}
