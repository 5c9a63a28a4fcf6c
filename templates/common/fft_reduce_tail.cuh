/* fft {{NAME}} with into: the post statements contribute() into the
 * thread's accumulator over every item of the block; then the block's
 * threads combine (the phase-2 piece, its shared memory {{RED_SMEM}}
 * bytes in, after the FFT's) and the last block to take the ticket
 * combines the blocks' partials in block order
 * (reduce_finish_ticket.cuh), like a team reduce. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  gg_acc gg_mine = identity();
  gg_fft_items(args, g, gg_mine);
  gg_grid gg_rg = g;
  gg_rg.smem = g.smem + {{RED_SMEM}};
  finish(args, gg_rg, block_reduce(gg_mine, gg_rg));
}
#undef GG_COMBINE
