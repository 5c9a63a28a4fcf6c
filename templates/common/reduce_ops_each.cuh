/* One operator per value (op = { "min", "max", ... }): value k starts
 * from the identity of its own operator and combines with it. */
GG_INLINE acc identity()
{
  acc a;
{{IDENTITY_EACH}}
  return a;
}
GG_INLINE void combine(acc &a, const acc &b)
{
{{COMBINE_EACH}}
}
