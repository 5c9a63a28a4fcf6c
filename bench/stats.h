/*
 * stats.h - latency statistics shared by the benchmarks.
 *
 * Collect samples (microseconds, say) into a gg_stats, then ask for the
 * summary: mean, p50, p99, p99.9, p99.99, max, jitter (max - mean, as in the
 * CuPer study).  Rows go to a table on stdout and to a CSV file so results
 * can be compared across runs and devices.
 *
 *   bench_stats s; bench_stats_init(&s, iters);
 *   for (...) bench_stats_add(&s, t_us);
 *   bench_summary r; bench_stats_summarize(&s, &r);
 *   bench_print_header(stdout); bench_print_row(stdout, "launch", &r);
 *   FILE *csv = bench_csv_open("launch.csv");  bench_csv_row(csv, "launch", &r);
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>
#include <stdio.h>

typedef struct bench_stats {
  double *v;
  size_t n, cap;
} bench_stats;

typedef struct bench_summary {
  size_t n;
  double mean, min, p50, p99, p999, p9999, max;
  double jitter; /* max - mean */
  double stddev;
} bench_summary;

/* cap: expected number of samples (grows if exceeded).  Returns 0 / -1. */
int bench_stats_init(bench_stats *s, size_t cap);
void bench_stats_free(bench_stats *s);
void bench_stats_reset(bench_stats *s);
int bench_stats_add(bench_stats *s, double value);
/* Sorts a copy; s is left as collected.  An empty set gives all zeros. */
void bench_stats_summarize(const bench_stats *s, bench_summary *out);
/* Percentile (0..100) of an ascending-sorted array, nearest rank. */
double bench_percentile(const double *sorted, size_t n, double pct);

/* Monotonic clock, microseconds. */
double bench_now_us(void);
/* Calls step(arg) `warmup` times, then `iters` times, each of those
 * call's time (us) into s, which is reset first. */
void bench_time(bench_stats *s, int warmup, int iters, void (*step)(void *), void *arg);

/* Table: fixed-width columns, values in the unit given in the header. */
void bench_print_header(FILE *f, const char *unit);
void bench_print_row(FILE *f, const char *label, const bench_summary *r);
/* The short row of the benches against vendor libraries: the label in
 * `width` columns, then mean, p50, p99, p99.9, max (us, 9 columns each);
 * no newline, so the caller may add ratios. */
void bench_print_short(FILE *f, int width, const char *label, const bench_summary *r);

/* CSV: header written when the file is new or empty.  Columns:
 * bench,label,n,mean,min,p50,p99,p99.9,p99.99,max,jitter,stddev,device,date */
FILE *bench_csv_open(const char *path);
void bench_csv_row(FILE *f, const char *bench, const char *label, const bench_summary *r,
                   const char *device);
/* A key/value row for numbers that are not distributions (ratios, sizes). */
void bench_csv_value(FILE *f, const char *bench, const char *label, double value,
                     const char *device);

#endif /* BENCH_STATS_H */
