/*
 * session_stats.c - per-frame latency statistics (session_stats.h).
 *
 * A session streams each frame into fixed memory, and only when
 * statistics were asked for: histograms, the largest frames kept
 * exactly, and the clock offset that splits a frame into its parts.  The
 * frame loop pays a few dozen nanoseconds after each wait (four bucket
 * increments, one compare with the smallest kept frame), nothing when
 * off.  Percentiles are nearest-rank.  gg_stats_compute does the same on
 * any array of samples, sorted.
 */
#include "session_stats.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    s.p999999_ns = rank(ns, n, 0.999999);
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

/* ---- streamed statistics ---- */

const char *gg_part_name(gg_part p)
{
  static const char *const name[GG_NPARTS + 1] = {"to_gpu", "gpu", "to_host", "unknown"};
  return p >= 0 && p <= GG_NPARTS ? name[p] : "unknown";
}

/* Values below 2 * SUB have a bucket each; above, a power of two 2^e
 * holds SUB buckets of 2^(e - SUB_BITS) ns. */
uint32_t ggr_hist_bucket(uint64_t v)
{
  if (v >= (1ull << GGR_HIST_TOP_BIT))
    v = (1ull << GGR_HIST_TOP_BIT) - 1;
  if (v < 2u * GGR_HIST_SUB)
    return (uint32_t)v;
  unsigned e = 63u - (unsigned)__builtin_clzll(v), shift = e - GGR_HIST_SUB_BITS;
  return 2u * GGR_HIST_SUB + (e - GGR_HIST_SUB_BITS - 1u) * GGR_HIST_SUB +
         (uint32_t)(v >> shift) - GGR_HIST_SUB;
}

void ggr_hist_bounds(uint32_t b, uint64_t *lo, uint64_t *hi)
{
  if (b < 2u * GGR_HIST_SUB) {
    *lo = b;
    *hi = b + 1u;
    return;
  }
  uint32_t k = b - 2u * GGR_HIST_SUB, shift = k / GGR_HIST_SUB + 1u;
  uint64_t top = GGR_HIST_SUB + k % GGR_HIST_SUB;
  *lo = top << shift;
  *hi = (top + 1u) << shift;
}

/* A part goes in as whole nanoseconds, 0 for a negative one (the offset
 * is an estimate: a part near 0 may come out a little below). */
static uint64_t part_ns(double v) { return v > 0 ? (uint64_t)v : 0; }

void ggr_split_init(ggr_split *sp) { memset(sp, 0, sizeof *sp); }

gg_part ggr_late_part(const gg_frame_time *t, const double typical[GG_NPARTS])
{
  gg_part late = GG_PART_TO_GPU;
  for (int p = 1; p < GG_NPARTS; p++)
    if (t->part_ns[p] - typical[p] > t->part_ns[late] - typical[late])
      late = (gg_part)p;
  return late;
}

void ggr_split_frame(ggr_split *sp, const ggr_frame_in *in, gg_frame_time *out)
{
  memset(out, 0, sizeof *out);
  out->frame = in->frame;
  out->total_ns = (double)(in->t3 - in->t0);
  out->late = GG_PART_UNKNOWN;
  if (!in->timed)
    return;
  /* NTP: offset = ((seen - t0) + (seen + busy - t3)) / 2, in 64-bit
   * signed arithmetic (the two clocks' zeros are years apart). */
  uint64_t rtt = in->t3 - in->t0 > in->busy ? in->t3 - in->t0 - in->busy : 0;
  int64_t off = (int64_t)(in->seen - in->t0) + ((int64_t)(in->seen - in->t3) + (int64_t)in->busy);
  off /= 2;
  if (sp->win_n == 0 || rtt <= sp->win_rtt) { /* the latest of equals: fresher */
    sp->win_rtt = rtt;
    sp->win_offset = off;
    sp->win_busy = in->busy;
  }
  if (sp->timed == 0 || rtt < sp->min_rtt)
    sp->min_rtt = rtt;
  /* The first window uses its best so far; later ones the last window's
   * best, so a drifting offset is followed one window behind. */
  if (!sp->have_offset) {
    sp->offset = sp->win_offset;
    sp->offset_rtt = sp->win_rtt;
  }
  if (++sp->win_n == GGR_OFFSET_WINDOW) {
    if (!sp->have_offset) { /* the medians start from the window's quickest frame */
      sp->typical[GG_PART_TO_GPU] = sp->typical[GG_PART_TO_HOST] = (double)sp->win_rtt / 2;
      sp->typical[GG_PART_GPU] = (double)sp->win_busy;
    }
    sp->offset = sp->win_offset;
    sp->offset_rtt = sp->win_rtt;
    sp->have_offset = 1;
    sp->win_n = 0;
  }
  out->device_seen_ns = in->seen;
  double to_gpu = (double)(int64_t)(in->seen - (uint64_t)sp->offset - in->t0);
  out->part_ns[GG_PART_TO_GPU] = to_gpu;
  out->part_ns[GG_PART_GPU] = (double)in->busy;
  out->part_ns[GG_PART_TO_HOST] = out->total_ns - to_gpu - (double)in->busy;
  sp->timed++;
  out->late = ggr_late_part(out, sp->typical);
  /* Running medians, from the end of the first window (before, a frame
   * is named for its largest part): each moves a step (1 ns + 1/1024 of
   * itself) toward each frame's part; a steady stream's median, in
   * constant memory. */
  for (int p = 0; p < GG_NPARTS && sp->have_offset; p++) {
    double step = 1.0 + fabs(sp->typical[p]) / 1024.0;
    sp->typical[p] += out->part_ns[p] > sp->typical[p] ? step : -step;
  }
}

gg_status ggr_stats_init(ggr_stats *st, uint64_t limit, uint32_t tail_cap)
{
  memset(st, 0, sizeof *st);
  st->limit = limit;
  if (tail_cap == 0)
    tail_cap = limit < GGR_TAIL_DEFAULT ? (uint32_t)limit : GGR_TAIL_DEFAULT;
  if (tail_cap == 0)
    tail_cap = 1;
  st->tail_cap = tail_cap;
  st->tail = malloc((size_t)tail_cap * sizeof *st->tail);
  if (!st->tail)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "session statistics: %u frames kept exactly",
                         tail_cap);
  return GG_OK;
}

void ggr_stats_free(ggr_stats *st)
{
  free(st->tail);
  st->tail = NULL;
}

void ggr_stats_reset(ggr_stats *st)
{
  gg_frame_time *tail = st->tail;
  uint64_t limit = st->limit;
  uint32_t cap = st->tail_cap;
  memset(st, 0, sizeof *st);
  st->tail = tail;
  st->limit = limit;
  st->tail_cap = cap;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The min-heap of kept frames on total_ns: the root is the smallest kept. */
static void heap_swap(gg_frame_time *h, uint32_t a, uint32_t b)
{
  gg_frame_time t = h[a];
  h[a] = h[b];
  h[b] = t;
}
static void heap_up(gg_frame_time *h, uint32_t i)
{
  while (i > 0 && h[(i - 1) / 2].total_ns > h[i].total_ns) {
    heap_swap(h, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}
static void heap_down(gg_frame_time *h, uint32_t n, uint32_t i)
{
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && h[l].total_ns < h[m].total_ns)
      m = l;
    if (r < n && h[r].total_ns < h[m].total_ns)
      m = r;
    if (m == i)
      return;
    heap_swap(h, i, m);
    i = m;
  }
}

void ggr_stats_add(ggr_stats *st, const ggr_frame_in *in, const gg_frame_time *t)
{
  if (st->count >= st->limit)
    return;
  uint64_t total = in->t3 - in->t0;
  if (st->count == 0 || total < st->min)
    st->min = total;
  if (total > st->max)
    st->max = total;
  st->count++;
  st->sum += (double)total;
  st->total.count[ggr_hist_bucket(total)]++;
  if (in->timed) {
    st->timed++;
    for (int p = 0; p < GG_NPARTS; p++) {
      st->part_sum[p] += t->part_ns[p];
      st->part[p].count[ggr_hist_bucket(part_ns(t->part_ns[p]))]++;
      if (st->timed == 1 || t->part_ns[p] > st->part_max[p])
        st->part_max[p] = t->part_ns[p];
    }
    st->clock_step = gcd(gcd(st->clock_step, in->busy), in->seen);
    if (in->busy && (st->busy_min == 0 || in->busy < st->busy_min))
      st->busy_min = in->busy;
  }
  if (st->tail_n < st->tail_cap) {
    st->tail[st->tail_n] = *t;
    heap_up(st->tail, st->tail_n++);
  } else if (t->total_ns > st->tail[0].total_ns) {
    st->tail[0] = *t;
    heap_down(st->tail, st->tail_n, 0);
  }
}

static int by_total_desc(const void *a, const void *b)
{
  double x = ((const gg_frame_time *)a)->total_ns, y = ((const gg_frame_time *)b)->total_ns;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Nearest rank k (1..n) of a histogram of n values: the middle of its
 * bucket, within [lo, hi] (the values seen). */
static double hist_rank(const ggr_hist *h, uint64_t k, double lo, double hi)
{
  uint64_t c = 0;
  for (uint32_t b = 0; b < GGR_HIST_BUCKETS; b++) {
    c += h->count[b];
    if (c >= k) {
      uint64_t blo, bhi;
      ggr_hist_bounds(b, &blo, &bhi);
      double mid = bhi - blo == 1 ? (double)blo : ((double)blo + (double)bhi - 1.0) / 2.0;
      return mid < lo ? lo : mid > hi ? hi : mid;
    }
  }
  return hi;
}

static uint64_t rank_of(uint64_t n, double q)
{
  double r = q * (double)n;
  uint64_t k = (uint64_t)r;
  if ((double)k < r)
    k++;
  return k < 1 ? 1 : k > n ? n : k;
}

/* Percentile q of the totals: exact from the sorted kept frames (the
 * largest first) when its rank is among them. */
static double total_rank(const ggr_stats *st, const gg_frame_time *sorted, double q)
{
  uint64_t k = rank_of(st->count, q), from = st->count - st->tail_n;
  if (k > from)
    return sorted[st->count - k].total_ns;
  return hist_rank(&st->total, k, (double)st->min, (double)st->max);
}

static void part_stats(const ggr_stats *st, int p, gg_part_stats *o)
{
  double hi = st->part_max[p] > 0 ? st->part_max[p] : 0;
  uint64_t n = st->timed;
  o->mean_ns = st->part_sum[p] / (double)n;
  o->p50_ns = hist_rank(&st->part[p], rank_of(n, 0.50), 0, hi);
  o->p99_ns = hist_rank(&st->part[p], rank_of(n, 0.99), 0, hi);
  o->p999_ns = hist_rank(&st->part[p], rank_of(n, 0.999), 0, hi);
  o->p9999_ns = hist_rank(&st->part[p], rank_of(n, 0.9999), 0, hi);
  o->max_ns = st->part_max[p];
}

/* The kept frames sorted, the largest first, each named late against the
 * run's medians (malloc'd; NULL when out of memory). */
static gg_frame_time *sorted_tails(const ggr_stats *st)
{
  gg_frame_time *v = malloc(((size_t)st->tail_n + 1) * sizeof *v);
  if (!v)
    return NULL;
  memcpy(v, st->tail, (size_t)st->tail_n * sizeof *v);
  qsort(v, st->tail_n, sizeof *v, by_total_desc);
  double median[GG_NPARTS] = {0};
  for (int p = 0; p < GG_NPARTS && st->timed; p++)
    median[p] = hist_rank(&st->part[p], rank_of(st->timed, 0.5), 0,
                          st->part_max[p] > 0 ? st->part_max[p] : 0);
  for (uint32_t i = 0; i < st->tail_n; i++)
    if (v[i].late != GG_PART_UNKNOWN)
      v[i].late = ggr_late_part(&v[i], median);
  return v;
}

void ggr_stats_summary(const ggr_stats *st, const ggr_split *sp, gg_stats *out)
{
  gg_stats s;
  memset(&s, 0, sizeof s);
  s.count = st->count;
  gg_frame_time *v = st->count ? sorted_tails(st) : NULL;
  if (v) {
    s.mean_ns = st->sum / (double)st->count;
    s.min_ns = (double)st->min;
    s.max_ns = (double)st->max;
    s.p50_ns = total_rank(st, v, 0.50);
    s.p99_ns = total_rank(st, v, 0.99);
    s.p999_ns = total_rank(st, v, 0.999);
    s.p9999_ns = total_rank(st, v, 0.9999);
    s.p999999_ns = total_rank(st, v, 0.999999);
    s.jitter_ns = s.max_ns - s.mean_ns;
    s.exact_from = st->count - st->tail_n;
    s.tails_cover_p999 = rank_of(st->count, 0.999) >= s.exact_from;
    for (uint32_t i = 0; i < st->tail_n && v[i].total_ns > s.p999_ns; i++) {
      s.tail_over_p999++;
      s.tail_late[v[i].late]++;
    }
    free(v);
  }
  s.timed = st->timed;
  for (int p = 0; p < GG_NPARTS && st->timed; p++)
    part_stats(st, p, &s.part[p]);
  if (sp && sp->timed) {
    s.offset_ns = (double)sp->offset;
    s.min_rtt_ns = (double)sp->min_rtt;
    s.offset_rtt_ns = (double)sp->offset_rtt;
  }
  s.clock_step_ns = (double)st->clock_step;
  s.busy_min_ns = (double)st->busy_min;
  *out = s;
}

size_t ggr_stats_tails(const ggr_stats *st, gg_frame_time *out, size_t max)
{
  gg_frame_time *v = sorted_tails(st);
  if (!v)
    return 0;
  size_t n = st->tail_n < max ? st->tail_n : max;
  memcpy(out, v, n * sizeof *v);
  free(v);
  return n;
}

gg_status ggr_stats_histogram_csv(const ggr_stats *st, FILE *f, uint32_t bucket_ns)
{
  if (bucket_ns == 0)
    bucket_ns = 100;
  const ggr_hist *h[1 + GG_NPARTS] = {&st->total, &st->part[0], &st->part[1], &st->part[2]};
  /* the top bucket holding anything sets the row count */
  uint64_t top = 0;
  for (int i = 0; i < 1 + GG_NPARTS; i++)
    for (uint32_t b = 0; b < GGR_HIST_BUCKETS; b++)
      if (h[i]->count[b]) {
        uint64_t lo, hi;
        ggr_hist_bounds(b, &lo, &hi);
        if (lo + (hi - lo) / 2 > top)
          top = lo + (hi - lo) / 2;
      }
  uint64_t nb = top / bucket_ns + 1;
  if (nb > 1000000) /* one runaway frame must not allocate gigabytes */
    nb = 1000000;
  uint64_t *count = calloc(nb * (1 + GG_NPARTS), sizeof *count);
  if (!count)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "histogram of %llu buckets",
                         (unsigned long long)nb);
  for (int i = 0; i < 1 + GG_NPARTS; i++)
    for (uint32_t b = 0; b < GGR_HIST_BUCKETS; b++)
      if (h[i]->count[b]) {
        uint64_t lo, hi;
        ggr_hist_bounds(b, &lo, &hi);
        uint64_t r = (lo + (hi - lo) / 2) / bucket_ns;
        count[(r < nb ? r : nb - 1) * (1 + GG_NPARTS) + (uint64_t)i] += h[i]->count[b];
      }
  fprintf(f, "bucket_lo_ns,bucket_hi_ns,count,to_gpu,gpu,to_host\n");
  for (uint64_t r = 0; r < nb; r++) {
    const uint64_t *c = count + r * (1 + GG_NPARTS);
    if (c[0] || c[1] || c[2] || c[3])
      fprintf(f, "%llu,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)(r * bucket_ns),
              (unsigned long long)((r + 1) * bucket_ns), (unsigned long long)c[0],
              (unsigned long long)c[1], (unsigned long long)c[2], (unsigned long long)c[3]);
  }
  free(count);
  return ferror(f) ? ggr_set_error(GG_ERR_IO, "histogram: writing the CSV failed") : GG_OK;
}

gg_status ggr_stats_tails_csv(const ggr_stats *st, FILE *f)
{
  gg_frame_time *v = sorted_tails(st);
  if (!v)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "tails of %u frames", st->tail_n);
  fprintf(f, "frame,total_ns,to_gpu_ns,gpu_ns,to_host_ns,late\n");
  for (uint32_t i = 0; i < st->tail_n; i++)
    fprintf(f, "%llu,%.0f,%.0f,%.0f,%.0f,%s\n", (unsigned long long)v[i].frame, v[i].total_ns,
            v[i].part_ns[0], v[i].part_ns[1], v[i].part_ns[2], gg_part_name(v[i].late));
  free(v);
  return ferror(f) ? ggr_set_error(GG_ERR_IO, "tails: writing the CSV failed") : GG_OK;
}
