/* for {{NAME}} at linear index gg_lin: the body once.  The loop below
 * calls it; a frame may also call it from a reduction's fold that reads
 * what it writes at the same index (gen/frame.c: fusion). */
{{IO_STRUCT}}GG_INLINE void gg_at_{{NAME}}(const {{ARGS_T}} &args, const long long gg_lin{{IO_AT_PARAMS}})
{
  {{UNPACK}}
{{VIEW_MACROS}}
  {{INDEX_DECODE}}
  /* the body runs in a lambda so that `return;` skips one index */
  [&]() {
{{BODY}}
  }();
{{IO_PUBLISH}}{{VIEW_UNDEFS}}
}

/* for {{NAME}}: every index of the range once.  Consecutive threads take
 * consecutive linear indices (coalesced on the contiguous dimension),
 * {{VECTOR}} per thread and step, striding by the whole virtual grid, so
 * any grid - classic, or the fixed one of a persistent kernel - covers
 * the range.  At step k (pseudo-)block b takes chunk gg_c = k nblocks + b
 * of the range, gg_chunk consecutive indices from gg_lo: the unit a
 * frame's halo exchange publishes and reads (halo_exchange.cuh). */
__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g{{IO_PARAM}})
{
  {{UNPACK}}
  const long long gg_work = {{WORK}};
  const long long gg_chunk = (long long)g.nthreads * {{VECTOR}};
  const long long gg_step = gg_chunk * g.nblocks;
  long long gg_lo = (long long)g.block * gg_chunk, gg_c = g.block;
  for (long long gg_base = gg_lo + (long long)g.thread * {{VECTOR}}; gg_base < gg_work;
       gg_base += gg_step, gg_lo += gg_step, gg_c += g.nblocks) {
#pragma unroll
    for (int gg_v = 0; gg_v < {{VECTOR}}; ++gg_v) {
      if (gg_base + gg_v >= gg_work) break;
      gg_at_{{NAME}}(args, gg_base + gg_v{{IO_AT_ARGS}});
    }
  }
  (void)gg_lo; (void)gg_c; (void)gg_chunk;
}
