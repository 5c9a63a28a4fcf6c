/* team reduce {{NAME}}: what the team's threads contribute (the result
 * goes into `into` by reduce_head.cuh's store()).  Any thread may call
 * contribute(v0, v1, ...) any number of times (one value per element of
 * into); its contributions fold into its own accumulator, so a call is no
 * barrier and needs no other thread.
 * After the league, each team's block combines its threads' accumulators
 * (a phase-2 block piece) and the last block to take the ticket combines
 * the blocks' partials in block order (reduce_finish_ticket.cuh). */
GG_INLINE acc shfl_down(const acc &a, int delta)
{
  acc r;
#pragma unroll
  for (int k = 0; k < NV; ++k) r.v[k] = gg_shfl_down(a.v[k], delta);
  return r;
}

template <class... gg_T> GG_INLINE void gg_contribute(acc &gg_m, gg_T... gg_v)
{
  static_assert(sizeof...(gg_T) == NV, "contribute() takes one value per element of into");
  const acc_t gg_vs[NV] = { (acc_t)(gg_v)... };
  acc gg_b;
#pragma unroll
  for (int gg_k = 0; gg_k < NV; ++gg_k) gg_b.v[gg_k] = gg_vs[gg_k];
  combine(gg_m, gg_b);
}
