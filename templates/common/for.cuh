#ifndef GG_FOR_HELPERS
#define GG_FOR_HELPERS
/* Every index of [0, work) once on the virtual grid g: consecutive
 * threads take consecutive linear indices (coalesced on the contiguous
 * dimension), V per thread and step, striding by the whole virtual grid,
 * so any grid - classic, or the fixed one of a persistent kernel - covers
 * the range.  At step k (pseudo-)block b takes chunk c = k nblocks + b,
 * g.nthreads x V consecutive indices from lo: at(i, lo, c) runs index i
 * (a frame's halo exchange publishes and reads chunk edges:
 * halo_exchange.cuh). */
template <int V, class F> GG_INLINE void gg_grid_stride(const gg_grid &g, long long work, F at)
{
  const long long chunk = (long long)g.nthreads * V, step = chunk * g.nblocks;
  long long lo = (long long)g.block * chunk, c = g.block;
  for (long long base = lo + (long long)g.thread * V; base < work;
       base += step, lo += step, c += g.nblocks) {
#pragma unroll
    for (int v = 0; v < V; ++v) {
      if (base + v >= work) break;
      at(base + v, lo, c);
    }
  }
}
#endif

/* for {{NAME}} at linear index gg_lin: the body once.  A frame may also
 * run it from a reduction's fold that reads what it writes at the same
 * index (gen/frame.c: fusion). */
GG_INLINE void gg_at_{{NAME}}(const {{ARGS_T}} &args, const long long gg_lin)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  {{INDEX_DECODE}}
  /* the body runs in a lambda so that `return;` skips one index */
  [&]() {
{{BODY}}
  }();
{{VIEW_UNDEFS}}
}

/* for {{NAME}}: every index of the range once, {{VECTOR}} per thread and step. */
__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g)
{
  {{UNPACK}}
  gg_grid_stride<{{VECTOR}}>(g, {{WORK}}, [&](long long gg_i, long long, long long) {
    gg_at_{{NAME}}(args, gg_i);
  });
}
#if {{EXCHANGED}}

{{IO_STRUCT}}
/* The same where a frame exchanges halos in tagged words (its plan,
 * gen/frame.c): halo views read through gg_halo_ld, written views
 * published after the body.  A separate body, so the plain one above
 * keeps its loop as the compiler would have it (a poll's loop in it
 * stops the compiler from unrolling and overlapping the steps: measured
 * on the H100, a 1M-element stencil stage behind neighbour waits took
 * 9.1 us instead of 4.8). */
GG_INLINE void gg_xat_{{NAME}}(const {{ARGS_T}} &args, const long long gg_lin,
                               const gg_io_{{NAME}} &gg_io, const long long gg_lo,
                               const long long gg_chunk, const long long gg_c)
{
  {{UNPACK}}
{{XVIEW_MACROS}}
  {{INDEX_DECODE}}
  [&]() {
{{BODY}}
  }();
{{IO_PUBLISH}}{{VIEW_UNDEFS}}
}

__device__ void gg_body_{{NAME}}(const {{ARGS_T}} &args, const gg_grid &g, const gg_io_{{NAME}} &gg_io)
{
  {{UNPACK}}
  const long long gg_chunk = (long long)g.nthreads * {{VECTOR}};
  gg_grid_stride<{{VECTOR}}>(g, {{WORK}}, [&](long long gg_i, long long gg_lo, long long gg_c) {
    gg_xat_{{NAME}}(args, gg_i, gg_io, gg_lo, gg_chunk, gg_c);
  });
}
#endif
