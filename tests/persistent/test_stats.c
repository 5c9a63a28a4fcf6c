/* test_stats.c - percentiles, jitter and the CSV histogram against known values. */
#include "gg_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void)
{
  /* 1..10000 shuffled: nearest-rank percentiles are exact. */
  enum { N = 10000 };
  double *v = malloc(N * sizeof *v);
  CHECK(v);
  for (int i = 0; i < N; i++)
    v[i] = (double)(((long long)i * 7919) % N + 1);
  gg_stats s;
  gg_stats_compute(v, N, &s);
  CHECK(s.count == N);
  CHECK(s.min_ns == 1 && s.max_ns == N);
  CHECK(s.mean_ns == 5000.5);
  CHECK(s.p50_ns == 5000 && s.p99_ns == 9900 && s.p999_ns == 9990 && s.p9999_ns == 9999);
  CHECK(s.jitter_ns == N - 5000.5);

  /* 7 samples (not a power of two). */
  double w[7] = {30, 10, 70, 20, 50, 40, 60};
  gg_stats_compute(w, 7, &s);
  CHECK(s.p50_ns == 40 && s.p99_ns == 70 && s.mean_ns == 40 && s.jitter_ns == 30);

  gg_stats_compute(NULL, 0, &s);
  CHECK(s.count == 0 && s.max_ns == 0);

  /* Histogram: 100 ns buckets. */
  double h[5] = {50, 150, 160, 950, 99};
  FILE *f = tmpfile();
  CHECK(f);
  CHECK(gg_stats_histogram_csv(h, 5, f, 100) == GG_OK);
  rewind(f);
  char buf[256] = {0};
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  CHECK(n > 0);
  CHECK(strcmp(buf, "bucket_lo_ns,bucket_hi_ns,count\n0,100,2\n100,200,2\n900,1000,1\n") == 0);
  CHECK(gg_stats_histogram_csv(h, 5, NULL, 100) == GG_ERR_INVALID);
  free(v);
  puts("stats: percentiles, jitter and histogram as expected");
  return 0;
}
