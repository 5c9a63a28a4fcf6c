/* The reduce workspace, shared by every phase-3 tail. */
/* Workspace (zero-filled by the runtime, left as found), laid out by
 * gg_abi.h: ticket, init state, grid barrier, accumulator, then one
 * partial per block. */
GG_INLINE unsigned *ws_ticket(const {{ARGS_T}} &args)
{
  return (unsigned *)((char *)args.gg_ws + GG_REDUCE_WS_TICKET_OFF);
}
GG_INLINE acc *ws_partials(const {{ARGS_T}} &args)
{
  return (acc *)((char *)args.gg_ws + GG_REDUCE_WS_PARTIALS_OFF);
}

/* Another block's partial: volatile so a persistent kernel never reads a
 * line its SM's L1 kept from an earlier frame. */
GG_INLINE acc load_partial(const acc *p)
{
  acc a;
#pragma unroll
  for (int k = 0; k < NV; ++k) a.v[k] = *(volatile const acc_t *)&p->v[k];
  return a;
}


