/* reduce {{NAME}}: the first piece of every reduce strategy.
 * gpugen renders a reduce as an ordered list of pieces chosen by the plan
 * (gen/reduce_plan.c), all with the same values: this head (types, the
 * element read, phase 1), a phase-2 block piece (reduce_block_*.cuh), the
 * workspace layout (reduce_workspace.cuh) and a phase-3 tail
 * (reduce_tail_*.cuh) that also defines gg_body_{{NAME}}. */
{{COMBINE_DEF}}
namespace GG_NS_{{NAME}} {

typedef {{ACC_T}} acc_t;      /* f16/bf16 sums accumulate in f32 */
typedef {{VEC_T}} elem_t;     /* element type of a plain `x(i)` source */
enum { NV = {{NVALUES}}, VEC = {{RVEC}}, UNROLL = {{UNROLL}} };

/* One accumulator per value of a (multi-value) reduce. */
struct acc { acc_t v[NV]; };
/* Code after the unpacked parameters names only gg_ things (and acc_t,
 * elem_t, NV, VEC, UNROLL, which no workload name can be): a parameter
 * called acc would hide the struct there. */
typedef acc gg_acc;

