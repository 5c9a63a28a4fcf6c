GG_INLINE acc identity()
{
  acc a;
#pragma unroll
  for (int k = 0; k < NV; ++k) a.v[k] = (acc_t)({{IDENTITY}});
  return a;
}
GG_INLINE void combine(acc &a, const acc &b)
{
#pragma unroll
  for (int k = 0; k < NV; ++k) a.v[k] = GG_COMBINE(a.v[k], b.v[k]);
}
