/* for {{NAME}}: every index of the range once.  Consecutive threads take
 * consecutive linear indices (coalesced on the contiguous dimension),
 * {{VECTOR}} per thread and step, striding by the whole virtual grid, so
 * any grid - classic, or the fixed one of a persistent kernel - covers
 * the range. */
__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  const long long gg_work = {{WORK}};
  const long long gg_step = (long long)g.nblocks * g.nthreads * {{VECTOR}};
  for (long long gg_base = ((long long)g.block * g.nthreads + g.thread) * {{VECTOR}};
       gg_base < gg_work; gg_base += gg_step) {
#pragma unroll
    for (int gg_v = 0; gg_v < {{VECTOR}}; ++gg_v) {
      const long long gg_lin = gg_base + gg_v;
      if (gg_lin >= gg_work) break;
      {{INDEX_DECODE}}
      /* the body runs in a lambda so that `return;` skips one index */
      [&]() {
{{BODY}}
      }();
    }
  }
{{VIEW_UNDEFS}}
}
