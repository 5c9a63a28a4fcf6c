/* stats.c - see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int bench_stats_init(bench_stats *s, size_t cap) {
  s->n = 0;
  s->cap = cap ? cap : 64;
  s->v = malloc(s->cap * sizeof *s->v);
  return s->v ? 0 : -1;
}

void bench_stats_free(bench_stats *s) {
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

void bench_stats_reset(bench_stats *s) { s->n = 0; }

int bench_stats_add(bench_stats *s, double value) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    double *v = realloc(s->v, cap * sizeof *v);
    if (!v) return -1;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = value;
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_percentile(const double *sorted, size_t n, double pct) {
  if (n == 0) return 0;
  /* nearest rank: the smallest value with at least pct % of samples <= it */
  double rank = ceil(pct / 100.0 * (double)n);
  size_t i = rank < 1 ? 0 : (size_t)rank - 1;
  return sorted[i < n ? i : n - 1];
}

void bench_stats_summarize(const bench_stats *s, bench_summary *r) {
  memset(r, 0, sizeof *r);
  r->n = s->n;
  if (s->n == 0) return;
  double *c = malloc(s->n * sizeof *c);
  if (!c) return;
  memcpy(c, s->v, s->n * sizeof *c);
  qsort(c, s->n, sizeof *c, cmp_double);
  double sum = 0;
  for (size_t i = 0; i < s->n; i++) sum += c[i];
  r->mean = sum / (double)s->n;
  double var = 0;
  for (size_t i = 0; i < s->n; i++) var += (c[i] - r->mean) * (c[i] - r->mean);
  r->stddev = s->n > 1 ? sqrt(var / (double)(s->n - 1)) : 0;
  r->min = c[0];
  r->max = c[s->n - 1];
  r->p50 = bench_percentile(c, s->n, 50);
  r->p99 = bench_percentile(c, s->n, 99);
  r->p999 = bench_percentile(c, s->n, 99.9);
  r->p9999 = bench_percentile(c, s->n, 99.99);
  r->jitter = r->max - r->mean;
  free(c);
}

double bench_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void bench_time(bench_stats *s, int warmup, int iters, void (*step)(void *), void *arg) {
  for (int i = 0; i < warmup; i++) step(arg);
  bench_stats_reset(s);
  for (int i = 0; i < iters; i++) {
    double t0 = bench_now_us();
    step(arg);
    bench_stats_add(s, bench_now_us() - t0);
  }
}

void bench_print_header(FILE *f, const char *unit) {
  fprintf(f, "%-28s %8s %9s %9s %9s %9s %9s %9s %9s  (%s)\n", "", "n", "mean", "p50", "p99",
          "p99.9", "p99.99", "max", "jitter", unit ? unit : "us");
}

void bench_print_row(FILE *f, const char *label, const bench_summary *r) {
  fprintf(f, "%-28s %8zu %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n", label, r->n, r->mean,
          r->p50, r->p99, r->p999, r->p9999, r->max, r->jitter);
}

void bench_print_short(FILE *f, int width, const char *label, const bench_summary *r) {
  fprintf(f, "%-*s %9.2f %9.2f %9.2f %9.2f %9.2f", width, label, r->mean, r->p50, r->p99, r->p999,
          r->max);
}

static void csv_date(char *buf, size_t n) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

FILE *bench_csv_open(const char *path) {
  FILE *f = fopen(path, "a");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  if (ftell(f) == 0)
    fprintf(f, "bench,label,n,mean,min,p50,p99,p99.9,p99.99,max,jitter,stddev,device,date\n");
  return f;
}

void bench_csv_row(FILE *f, const char *bench, const char *label, const bench_summary *r,
                   const char *device) {
  char date[32];
  if (!f) return;
  csv_date(date, sizeof date);
  fprintf(f, "%s,%s,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,\"%s\",%s\n", bench, label,
          r->n, r->mean, r->min, r->p50, r->p99, r->p999, r->p9999, r->max, r->jitter, r->stddev,
          device ? device : "", date);
}

void bench_csv_value(FILE *f, const char *bench, const char *label, double value,
                     const char *device) {
  char date[32];
  if (!f) return;
  csv_date(date, sizeof date);
  fprintf(f, "%s,%s,1,%.6f,,,,,,,,,\"%s\",%s\n", bench, label, value, device ? device : "", date);
}
