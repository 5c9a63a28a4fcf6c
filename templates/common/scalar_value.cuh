/* The scalar helpers of scan and tile_reduce (one acc_t per element):
 * identity, combine, the size of the range, the value of element gg_lin
 * and the store of a result.  scan.cuh and tile_reduce.cuh name this
 * piece on a line of their own, inside their namespace, after acc_t. */
GG_INLINE acc_t identity() { return (acc_t)({{IDENTITY}}); }
GG_INLINE acc_t combine(acc_t a, acc_t b) { return GG_COMBINE(a, b); }

GG_INLINE long long work(const {{ARGS_T}} &args)
{
  {{UNPACK}}
  return {{WORK}};
}

GG_INLINE acc_t value_at(const {{ARGS_T}} &args, long long gg_lin)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  {{INDEX_DECODE}}
  return (acc_t)(
{{VALUE}}
  );
{{VIEW_UNDEFS}}
}

GG_INLINE void store_at(const {{ARGS_T}} &args, long long gg_lin, acc_t gg_v)
{
  {{UNPACK}}
{{VIEW_MACROS}}
  {{INTO}}(gg_lin) = gg_v;
{{VIEW_UNDEFS}}
}
