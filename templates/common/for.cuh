/* for {{NAME}} at linear index gg_lin: the body once.  A frame may also
 * run it from a reduction's fold that reads what it writes at the same
 * index (gen/frame_deps.c: fusion). */
GG_INLINE void gg_at(const {{ARGS_T}} &args, const long long gg_lin)
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

#if {{STAGED}}
/* for {{NAME}}: every index of the range once, {{VECTOR}} per thread and
 * step; {{STAGED_VIEWS}} (read only at the own index) in registers for up
 * to {{STAGE_STEPS}} steps at a time (gen/plan.c, plan_staging).  The
 * passes are lambdas here, so the kernel adds no name to the module. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  {{UNPACK}}
  struct gg_stage {
{{STAGE_FIELDS}}  };
  /* the staged views of index gg_lin into registers */
  auto gg_load = [&](const long long gg_lin, gg_stage &gg_s) {
{{VIEW_MACROS}}
    {{INDEX_DECODE}}
    {{STAGE_LOAD}}
{{VIEW_UNDEFS}}
  };
  /* the body, the staged views' macros naming the registers */
  auto gg_run = [&](const long long gg_lin, gg_stage &gg_s) {
{{STAGE_VIEW_MACROS}}
    {{INDEX_DECODE}}
    [&]() {
{{BODY}}
    }();
{{VIEW_UNDEFS}}
  };
#if {{STAGE_STORES}}
  /* the staged inout views back */
  auto gg_store = [&](const long long gg_lin, const gg_stage &gg_s) {
{{VIEW_MACROS}}
    {{INDEX_DECODE}}
    {{STAGE_STORE}}
{{VIEW_UNDEFS}}
  };
#else
  auto gg_store = [](long long, const gg_stage &) {}; /* no staged view is written */
#endif
  gg_grid_stride_staged<{{VECTOR}}, {{STAGE_STEPS}}, gg_stage>(g, {{WORK}}, gg_load, gg_run,
                                                              gg_store);
}
#else
/* for {{NAME}}: every index of the range once, {{VECTOR}} per thread and step. */
__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g)
{
  {{UNPACK}}
  gg_grid_stride<{{VECTOR}}>(g, {{WORK}}, [&](long long gg_i, long long, long long) {
    gg_at(args, gg_i);
  });
}
#endif
#if {{EXCHANGED}}

{{IO_STRUCT}}
/* The same where a frame exchanges halos in tagged words (its plan,
 * gen/frame_exchange.c): halo views read through gg_halo_ld, written views
 * published after the body.  A separate body, so the plain one above
 * keeps its loop as the compiler would have it (a poll's loop in it
 * stops the compiler from unrolling and overlapping the steps: measured
 * on the H100, a 1M-element stencil stage behind neighbour waits took
 * 9.1 us instead of 4.8). */
GG_INLINE void gg_xat(const {{ARGS_T}} &args, const long long gg_lin,
                      const gg_io_t &gg_io, const long long gg_lo,
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

__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g, const gg_io_t &gg_io)
{
  {{UNPACK}}
  const long long gg_chunk = (long long)g.nthreads * {{VECTOR}};
  gg_grid_stride<{{VECTOR}}>(g, {{WORK}}, [&](long long gg_i, long long gg_lo, long long gg_c) {
    gg_xat(args, gg_i, gg_io, gg_lo, gg_chunk, gg_c);
  });
}
#endif
