/* The number of indices of a 2-D or 3-D range with run-time extents.  A
 * product past 2^62 (no grid covers it, and past 2^63 it would wrap)
 * stops the kernel with a trap rather than reduce a wrong count:
 * gg_launch refuses such a range before it runs wherever the range sizes
 * the grid; this catches the fixed and cooperative grids and persistent
 * kernels. */
GG_INLINE long long gg_range_work(long long e0, long long e1, long long e2)
{
  const long long lim = 1LL << 62;
  if (e0 == 0 || e1 == 0 || e2 == 0) return 0;
  if (e0 > lim / e1 || e0 * e1 > lim / e2) {{TRAP}};
  return e0 * e1 * e2;
}

