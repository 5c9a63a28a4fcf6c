/* gemm {{NAME}} with into: the post statements contribute() into the
 * thread's accumulator over every unit of the block; then the block's
 * threads combine (the phase-2 piece, its shared memory {{RED_SMEM}}
 * bytes in, after the K step's panels) and the last block to take the
 * ticket combines the blocks' partials in block order
 * (reduce_finish_ticket.cuh), like a team reduce.  The panels' last
 * __syncthreads (gemm.cuh) orders the tiles' shared memory before the
 * combine's. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  gg_acc gg_mine = identity();
  gg_gemm_units(args, g, gg_mine);
  gg_grid gg_rg = g;
  gg_rg.smem = g.smem + {{RED_SMEM}};
  finish(args, gg_rg, block_reduce(gg_mine, gg_rg));
}
#undef GG_COMBINE
