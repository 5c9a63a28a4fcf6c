/* reduce {{NAME}}: the first piece of every reduce strategy.
 * gpugen renders a reduce as an ordered list of pieces chosen by the plan
 * (gen/reduce_plan.c), all with the same values: this head (types, the
 * accumulator, store() into `into`, for a team reduce too), the element
 * read and phase 1 (reduce_fold.cuh), a phase-2 block piece
 * (reduce_block_*.cuh), the workspace layout (reduce_workspace.cuh) and a
 * phase-3 tail (reduce_tail_*.cuh) that also defines gg_body. */
{{COMBINE_DEF}}

typedef {{ACC_T}} acc_t;      /* f16/bf16 sums accumulate in f32 */
typedef {{VEC_T}} elem_t;     /* element type of a plain `x(i)` source */
enum { NV = {{NVALUES}}, VEC = {{RVEC}}, UNROLL = {{UNROLL}} };

/* One accumulator per value of a (multi-value) reduce. */
struct acc { acc_t v[NV]; };
/* Code after the unpacked parameters names only gg_ things (and acc_t,
 * elem_t, NV, VEC, UNROLL, which no workload name can be): a parameter
 * called acc would hide the struct there. */
typedef acc gg_acc;

/* into(k) = gg_r.v[k]: the output is overwritten, never accumulated into. */
GG_INLINE void store(const {{ARGS_T}} &args, const gg_grid &g, const acc &gg_r)
{
  {{UNPACK}}
{{VIEW_MACROS}}
#pragma unroll
  for (int gg_k = 0; gg_k < NV; ++gg_k) {{INTO}}(gg_k) = gg_r.v[gg_k];
  gg_result_note(g, &{{INTO}}(0), gg_r.v[0]); /* for a frame's ack (prelude) */
{{VIEW_UNDEFS}}
}
