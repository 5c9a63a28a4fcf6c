/*
 * session_stats.c - per-frame latency statistics.
 *
 * A session records one uint64 of nanoseconds per frame into a buffer
 * allocated at open, and only when statistics were asked for: the frame
 * loop then pays one branch and two clock reads, nothing when off.
 * Percentiles are nearest-rank on the sorted samples.
 */
#include "gg_session.h"
#include "internal.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest sample with at least q of the samples <= it. */
static double rank(const double *v, uint64_t n, double q)
{
  double r = q * (double)n;
  uint64_t k = (uint64_t)r;
  if ((double)k < r)
    k++;
  if (k < 1)
    k = 1;
  if (k > n)
    k = n;
  return v[k - 1];
}

void gg_stats_compute(double *ns, uint64_t n, gg_stats *out)
{
  if (!out)
    return;
  if (!ns)
    n = 0;
  gg_stats s = {0};
  s.count = n;
  if (n) {
    qsort(ns, n, sizeof *ns, cmp_double);
    double sum = 0;
    for (uint64_t i = 0; i < n; i++)
      sum += ns[i];
    s.mean_ns = sum / (double)n;
    s.min_ns = ns[0];
    s.max_ns = ns[n - 1];
    s.p50_ns = rank(ns, n, 0.50);
    s.p99_ns = rank(ns, n, 0.99);
    s.p999_ns = rank(ns, n, 0.999);
    s.p9999_ns = rank(ns, n, 0.9999);
    s.jitter_ns = s.max_ns - s.mean_ns;
  }
  *out = s;
}

gg_status gg_stats_histogram_csv(const double *ns, uint64_t n, FILE *f, uint32_t bucket_ns)
{
  if (!f || (n && !ns))
    return GGR_NULL_ARG();
  if (bucket_ns == 0)
    bucket_ns = 100;
  double max = 0;
  for (uint64_t i = 0; i < n; i++)
    if (ns[i] > max)
      max = ns[i];
  uint64_t nb = (uint64_t)(max / bucket_ns) + 1;
  if (nb > 1000000) /* one runaway frame must not allocate gigabytes */
    nb = 1000000;
  uint64_t *count = calloc(nb, sizeof *count);
  if (!count)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "histogram of %llu buckets",
                         (unsigned long long)nb);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t b = ns[i] < 0 ? 0 : (uint64_t)(ns[i] / bucket_ns);
    count[b < nb ? b : nb - 1]++;
  }
  fprintf(f, "bucket_lo_ns,bucket_hi_ns,count\n");
  for (uint64_t b = 0; b < nb; b++)
    if (count[b])
      fprintf(f, "%llu,%llu,%llu\n", (unsigned long long)(b * bucket_ns),
              (unsigned long long)((b + 1) * bucket_ns), (unsigned long long)count[b]);
  free(count);
  return ferror(f) ? ggr_set_error(GG_ERR_IO, "histogram: writing the CSV failed") : GG_OK;
}
