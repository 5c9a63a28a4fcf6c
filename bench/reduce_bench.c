/*
 * reduce_bench.c - gpugen's reductions and scans against CUB, one process.
 *
 *   reduce_bench [--max-log2 N] [--csv FILE] [--only main|scan|lesson|shapes]
 *
 * For sizes 1K, 32K, 1M, 16M, 256M and types f32, i32, f64: every
 * strategy, `auto` and cub::DeviceReduce::Sum.  Columns: median time per
 * launch (us), GB/s (bytes read / time), fraction of the device-to-device
 * copy bandwidth measured in the same run (copy GB/s counts read + write),
 * ratio against CUB's GB/s.  Then the scans: auto inclusive sums of i32,
 * u32, f32, i64, u64 and f64 at 1K, 32K, 1M, 16M, 64M and 256M against
 * cub::DeviceScan::InclusiveSum (GB/s counts read + write), with tile
 * shape rows from 1M up (how auto's shape is chosen), every output
 * compared with CUB's element by element on the device (the data make
 * float sums exact in any order, so floats compare exactly too).  Then
 * the lesson: one atomicAdd per element on one address, float vs int,
 * next to the aggregated strategies.  Last the reduce tuning rows: other
 * shapes (block x items) and explicit grids at 1M, 16M and 256M beside
 * CUB and auto (how auto's shape is chosen).
 *
 * Each case: warm-up, then 5 batches of back-to-back launches between two
 * events; the time is the median batch mean.  In the main table CUB and
 * the strategies of one case are timed in 5 interleaved rounds and each
 * row is the median of its rounds (the scans: 3 rounds).  The results are
 * checked against CUB's (or exactly, for i32) so a fast wrong kernel shows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gg.h"
#include "reduce_bench.h"
#include "stats.h"
#ifdef GG_HAVE_CUB
#include "cub_ref.h"
#endif

static gg_context *ctx;
static gg_module *mod;
static gg_stream *stream;
static gg_event *ev0, *ev1;
static FILE *csv;

static void die(const char *what, gg_status s)
{
  fprintf(stderr, "reduce_bench: %s: %s: %s\n", what, gg_strerror(s), gg_error_detail());
  exit(1);
}

static gg_kernel *kernel(const char *name)
{
  gg_kernel *k;
  gg_status s = gg_kernel_get(mod, name, &k);
  if (s) die(name, s);
  return k;
}

/* One timed unit of work: a gpugen launch, a CUB call or a copy. */
typedef struct job {
  gg_kernel *k;        /* gpugen kernel, or NULL */
  int grid;            /* explicit grid (blocks), or 0: the plan's rule */
  gg_arg args[3];
  int cub;             /* 1 reduce, 2 scan (CUB), 3 device copy */
  int cub_type;
  gg_array *in, *out;
  long long n;
  size_t bytes;        /* for copies */
} job;

static void run_job(const job *j)
{
  gg_status s = GG_OK;
  if (j->k) {
    s = j->grid ? gg_launch_grid(j->k, stream, j->grid, j->args, 3)
                : gg_launch(j->k, stream, j->args, 3);
  } else if (j->cub == 3) {
    s = gg_copy(j->out, 0, j->in, 0, j->bytes, stream);
#ifdef GG_HAVE_CUB
  } else if (j->cub == 1) {
    if (cub_ref_reduce_sum(j->cub_type, gg_array_native(j->in), gg_array_native(j->out), j->n,
                           gg_stream_native(stream)))
      s = GG_ERR_BACKEND;
  } else if (j->cub == 2) {
    if (cub_ref_scan_inclusive_sum(j->cub_type, gg_array_native(j->in), gg_array_native(j->out),
                                   j->n, gg_stream_native(stream)))
      s = GG_ERR_BACKEND;
#endif
  }
  if (s) die("launch", s);
}

/* Median of n values (sorts them in place). */
static double median(double *v, int n)
{
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (v[b] < v[a]) { double x = v[a]; v[a] = v[b]; v[b] = x; }
  return v[n / 2];
}

/* Median over 5 batches of the mean time per run, in microseconds. */
static double time_job(const job *j, long long bytes_moved)
{
  int reps = bytes_moved > (64 << 20) ? 10 : bytes_moved > (1 << 20) ? 50 : 200;
  double t[5];
  for (int w = 0; w < 3; w++) run_job(j);
  for (int b = 0; b < 5; b++) {
    float ms;
    gg_status s = gg_event_record(ev0, stream);
    for (int r = 0; r < reps && !s; r++) run_job(j);
    if (!s) s = gg_event_record(ev1, stream);
    if (!s) s = gg_stream_sync(stream);
    if (!s) s = gg_event_elapsed_ms(ev0, ev1, &ms);
    if (s) die("timing", s);
    t[b] = ms * 1000.0 / reps;
  }
  return median(t, 5);
}

static int want(const char *only, const char *table)
{
  return !only || strcmp(only, table) == 0;
}

static const char *const tnames[] = { "f32", "i32", "f64" };
static const int tsize[] = { 4, 4, 8 };
static const char *const strategies[] = { "auto", "global_atomic", "shared_atomic",
                                          "warp_shuffle", "shared_tree", "cg_tile",
                                          "grid_sync", "deterministic" };
#define NSTRAT 8

static double read_result(gg_array *out, int t)
{
  unsigned char b[8];
  gg_status s = gg_copy_to_host(b, out, 0, (size_t)tsize[t], stream);
  if (!s) s = gg_stream_sync(stream);
  if (s) die("result", s);
  if (t == 0) { float f; memcpy(&f, b, 4); return f; }
  if (t == 1) { int i; memcpy(&i, b, 4); return i; }
  double d; memcpy(&d, b, 8); return d;
}

static void row(const char *table, const char *label, const char *type, long long n, double us,
                double gbs, double copy_gbs, double cub_gbs, const char *check)
{
  char ratio[16] = "-";
  if (cub_gbs > 0) snprintf(ratio, sizeof ratio, "%.3f", gbs / cub_gbs);
  printf("| %-14s | %-4s | %10lld | %10.2f | %8.1f | %5.3f | %6s | %-5s |\n", label, type, n, us,
         gbs, gbs / copy_gbs, ratio, check);
  if (csv) {
    char l[96];
    snprintf(l, sizeof l, "%s/%s/%s/%lld/us", table, label, type, n);
    bench_csv_value(csv, "reduce", l, us, gg_context_device_name(ctx));
    snprintf(l, sizeof l, "%s/%s/%s/%lld/GBps", table, label, type, n);
    bench_csv_value(csv, "reduce", l, gbs, gg_context_device_name(ctx));
  }
}

/* The header of a results table whose first column is `first`. */
static void table_head(const char *first)
{
  printf("| %-14s | type |          n |  time us |     GB/s | /copy | /CUB   | check |\n", first);
  printf("|----------------|------|------------|----------|----------|-------|--------|-------|\n");
}

/* Fill n elements of `in` with kernel `name` (pattern for: x(i) = ...). */
static void fill(const char *name, gg_array *in, long long n)
{
  gg_arg fa[2] = { gg_arg_array(in), gg_arg_i64(n) };
  gg_status s = gg_launch(kernel(name), stream, fa, 2);
  if (s) die("fill", s);
}

/* One reduce row: kernel `name` with the grid rule of its plan (blocks 0)
 * or an explicit grid, checked against CUB's result `ref`. */
static void shape_row(const char *name, const char *label, int blocks, int t, gg_array *in,
                      gg_array *out, long long n, double copy_gbs, double cub_gbs, double ref)
{
  job j = { .k = kernel(name), .grid = blocks,
            .args = { gg_arg_array(in), gg_arg_array(out), gg_arg_i64(n) } };
  double bytes = (double)n * tsize[t];
  double us = time_job(&j, (long long)bytes);
  double got = read_result(out, t);
  const char *check = isnan(ref) ? "-" : fabs(got - ref) <= (t == 1 ? 0 : 1e-6 * 3 * n) ? "ok" : "DIFF";
  row("shapes", label, tnames[t], n, us, bytes / (us * 1e3), copy_gbs, cub_gbs, check);
}

/* The tuning rows: block x items shapes (grid by the plan: cover the work,
 * capped at the co-resident blocks), then auto's kernel on explicit grids
 * of 1..8 blocks per SM - CUB sizes its grid as SMs x occupancy. */
static void shapes_table(gg_array *in, gg_array *out, long long maxn, double copy_gbs)
{
  static const char *const shapes[] = { "b128_i16", "b256_i4", "b256_i8", "b256_i32",
                                        "b512_i8", "b512_i16", "b1024_i4", "b1024_i16" };
  static const int per_sm[] = { 1, 2, 3, 4, 5, 6, 7 };
  static const int logs[] = { 20, 24, 28 };
  int sms = gg_context_sm_count(ctx);
  gg_status s;
  printf("\n### Shapes (tuning rows; bN_iM = block N, items M, grid by the plan; "
         "gK = auto's kernel on K blocks per SM)\n\n");
  table_head("shape");
  for (int t = 0; t < 3; t++) {
    char name[64], label[32], fill_name[64];
    snprintf(fill_name, sizeof fill_name, "fill_%s", tnames[t]);
    for (int li = 0; li < 3; li++) {
      long long n = 1LL << logs[li];
      if (n > maxn) continue;
      fill(fill_name, in, n);
      double bytes = (double)n * tsize[t], cub_gbs = 0, ref = NAN;
#ifdef GG_HAVE_CUB
      job cub = { .cub = 1, .cub_type = t == 0 ? CUB_REF_F32 : t == 1 ? CUB_REF_I32 : CUB_REF_F64,
                  .in = in, .out = out, .n = n };
      double cus = time_job(&cub, (long long)bytes);
      cub_gbs = bytes / (cus * 1e3);
      ref = read_result(out, t);
      row("shapes", "CUB", tnames[t], n, cus, cub_gbs, copy_gbs, cub_gbs, "ref");
#endif
      snprintf(name, sizeof name, "sum_auto_%s", tnames[t]);
      shape_row(name, "auto", 0, t, in, out, n, copy_gbs, cub_gbs, ref);
      for (int v = 0; v < 8; v++) {
        snprintf(name, sizeof name, "sum_shape_%s_%s", shapes[v], tnames[t]);
        shape_row(name, shapes[v], 0, t, in, out, n, copy_gbs, cub_gbs, ref);
      }
      snprintf(name, sizeof name, "sum_auto_%s", tnames[t]);
      int resident = 0;
      if ((s = gg_kernel_max_resident_blocks(kernel(name), &resident))) die("resident", s);
      for (int g = 0; g < 7; g++) {
        int blocks = per_sm[g] * sms;
        if (blocks > resident) break;
        snprintf(label, sizeof label, "auto g%d", per_sm[g]);
        shape_row(name, label, blocks, t, in, out, n, copy_gbs, cub_gbs, ref);
      }
    }
  }
}

/* ---- scans ---- */

static const char *const scan_tnames[] = { "i32", "u32", "f32", "i64", "u64", "f64" };
static const int scan_tsize[] = { 4, 4, 4, 8, 8, 8 };
#define SCAN_NTYPES 6
#ifdef GG_HAVE_CUB
static const int scan_cub[] = { CUB_REF_I32, CUB_REF_U32, CUB_REF_F32, CUB_REF_I64, CUB_REF_U64,
                                CUB_REF_F64 };
#endif
#define SCAN_MAXROWS 8 /* CUB, auto, up to 6 shapes */
#define SCAN_ROUNDS 3

/* Elements where `got` differs from `ref` (scan_diff_<t>, on the device),
 * as the check column: "ok", "DIFF" or "-" (no reference). */
static const char *scan_check(const char *t, gg_array *got, gg_array *ref, long long n, gg_array *count)
{
  char name[64];
  long long bad;
  gg_status s;
  if (!ref) return "-";
  snprintf(name, sizeof name, "scan_diff_%s", t);
  gg_arg a[4] = { gg_arg_array(got), gg_arg_array(ref), gg_arg_array(count), gg_arg_i64(n) };
  if ((s = gg_launch(kernel(name), stream, a, 4)) || (s = gg_copy_to_host(&bad, count, 0, 8, stream))
      || (s = gg_stream_sync(stream)))
    die("scan check", s);
  if (bad) fprintf(stderr, "reduce_bench: %s n=%lld: %lld elements differ from CUB\n", t, n, bad);
  return bad ? "DIFF" : "ok";
}

/* The scan kernels timed for type t at size n: auto, then the shape rows
 * (scan_b<block>_i<items>_<t>, tuning rows, from 1M up), in module
 * order, into names[0..max); returns how many. */
static int scan_kernels(const char *t, long long n, const char **names, int max)
{
  char suffix[16];
  int k = 0;
  snprintf(suffix, sizeof suffix, "_%s", t);
  const gg_module_desc *d = &gg_module_reduce_bench;
  for (int i = 0; i < gg_module_desc_kernel_count(d) && k < max; i++) {
    const char *nm = gg_module_desc_kernel_name(d, i);
    size_t l = strlen(nm), ls = strlen(suffix);
    if (l <= ls || strcmp(nm + l - ls, suffix) != 0) continue;
    if (strncmp(nm, "scan_auto_", 10) == 0) names[k++] = nm;
    else if (strncmp(nm, "scan_b", 6) == 0 && n >= (1 << 20)) names[k++] = nm;
  }
  return k;
}

/* Inclusive sums of every 4- and 8-byte type at 1K..256M: CUB, auto and
 * the shape rows timed in SCAN_ROUNDS interleaved rounds (each row the
 * median of its rounds: drift between back-to-back cases looked like a
 * difference between identical kernels), every output compared with
 * CUB's element by element.  GB/s counts read + write. */
static void scan_table(gg_array *in, gg_array *out, gg_array *ref, long long maxn, double copy_gbs)
{
  static const int logs[] = { 10, 15, 20, 24, 26, 28 };
  gg_array *count;
  gg_status s;
  if ((s = gg_array_alloc(ctx, GG_SPACE_DEVICE, 8, &count))) die("alloc", s);
  printf("\n### Scans (inclusive sum; GB/s counts read + write; check: every element equals "
         "CUB's; shape rows bN_iM = block N, M items per thread)\n\n");
  table_head("scan");
  for (int t = 0; t < SCAN_NTYPES; t++) {
    const char *tn = scan_tnames[t];
    char fill_name[64];
    snprintf(fill_name, sizeof fill_name, "scan_fill_%s", tn);
    for (int li = 0; li < 6; li++) {
      long long n = 1LL << logs[li];
      if (n > maxn) continue;
      fill(fill_name, in, n);
      double bytes = 2.0 * n * scan_tsize[t], us[SCAN_MAXROWS][SCAN_ROUNDS];
      const char *names[SCAN_MAXROWS - 1], *check[SCAN_MAXROWS - 1];
      int nk = scan_kernels(tn, n, names, SCAN_MAXROWS - 1);
      gg_array *reference = NULL;
#ifdef GG_HAVE_CUB
      job cub = { .cub = 2, .cub_type = scan_cub[t], .in = in, .out = ref, .n = n };
      run_job(&cub);
      reference = ref;
#endif
      for (int r = 0; r < SCAN_ROUNDS; r++) {
#ifdef GG_HAVE_CUB
        us[0][r] = time_job(&cub, (long long)bytes);
#endif
        for (int k = 0; k < nk; k++) {
          job j = { .k = kernel(names[k]),
                    .args = { gg_arg_array(in), gg_arg_array(out), gg_arg_i64(n) } };
          us[k + 1][r] = time_job(&j, (long long)bytes);
          const char *c = scan_check(tn, out, reference, n, count);
          if (r == 0 || strcmp(c, "ok") != 0) check[k] = c;
        }
      }
      double cub_gbs = 0;
#ifdef GG_HAVE_CUB
      double cus = median(us[0], SCAN_ROUNDS);
      cub_gbs = bytes / (cus * 1e3);
      row("scan", "CUB", tn, n, cus, cub_gbs, copy_gbs, cub_gbs, "ref");
#endif
      for (int k = 0; k < nk; k++) {
        double m = median(us[k + 1], SCAN_ROUNDS);
        /* "scan_auto_i32" -> "auto", "scan_b256_i12_i32" -> "b256_i12" */
        char label[32];
        snprintf(label, sizeof label, "%.*s", (int)(strlen(names[k]) - 5 - strlen(tn) - 1),
                 names[k] + 5);
        row("scan", label, tn, n, m, bytes / (m * 1e3), copy_gbs, cub_gbs, check[k]);
      }
    }
  }
  gg_array_free(count);
}

int main(int argc, char **argv)
{
  int max_log2 = 28;
  const char *csv_path = "reduce_bench.csv", *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--max-log2") == 0 && i + 1 < argc) max_log2 = atoi(argv[++i]);
    else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) csv_path = argv[++i];
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else {
      fprintf(stderr, "usage: reduce_bench [--max-log2 N] [--csv FILE] "
                      "[--only main|scan|lesson|shapes]\n");
      return 2;
    }
  }
  gg_status s = gg_context_open(&ctx, NULL);
  if (s) {
    printf("no GPU: %s\n", gg_error_detail());
    return 77;
  }
  if ((s = gg_module_load(ctx, &gg_module_reduce_bench, &mod))) die("module", s);
  if ((s = gg_stream_open(ctx, &stream)) || (s = gg_event_open(ctx, &ev0)) ||
      (s = gg_event_open(ctx, &ev1)))
    die("stream", s);
  csv = bench_csv_open(csv_path);

  long long maxn = 1LL << max_log2;
  gg_array *in, *out, *scan_out, *ref_out = NULL;
  if ((s = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)maxn * 8, &in))) die("alloc in", s);
  if ((s = gg_array_alloc(ctx, GG_SPACE_DEVICE, 64, &out))) die("alloc out", s);
  /* scans: up to 8-byte elements out, and CUB's output to compare with */
  if ((s = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)maxn * 8, &scan_out))) die("alloc", s);
  if (want(only, "scan") && (s = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)maxn * 8, &ref_out)))
    die("alloc", s);

  time_t now = time(NULL);
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  printf("## Reductions and scans\n\ndevice: %s (%d SMs), date: %s, command: reduce_bench%s\n",
         gg_context_device_name(ctx), gg_context_sm_count(ctx), date,
         max_log2 != 28 ? " --max-log2 N" : "");
#ifdef GG_HAVE_CUB
  printf("reference: %s, built with nvcc\n", cub_ref_version());
#else
  printf("reference: CUB not built (no CUDA compiler at configure time): ratio columns empty\n");
#endif

  /* copy bandwidth: device-to-device copy of half the input buffer */
  job cj = { .cub = 3, .in = in, .out = in, .bytes = (size_t)maxn * 2 };
  gg_array *copy_dst;
  if ((s = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)maxn * 4, &copy_dst))) die("alloc", s);
  cj.out = copy_dst;
  cj.bytes = (size_t)maxn * 4;
  double copy_us = time_job(&cj, (long long)cj.bytes * 2);
  double copy_gbs = 2.0 * cj.bytes / (copy_us * 1e3);
  printf("device-to-device copy of %zu MiB: %.1f us, %.1f GB/s (read + write)\n\n",
         cj.bytes >> 20, copy_us, copy_gbs);
  gg_array_free(copy_dst);

  static const int logs[] = { 10, 15, 20, 24, 28 };
  if (want(only, "main")) {
    table_head("strategy");
  }
  for (int t = 0; t < 3 && want(only, "main"); t++) {
    char name[64], fill_name[64];
    snprintf(fill_name, sizeof fill_name, "fill_%s", tnames[t]);
    for (int li = 0; li < 5; li++) {
      long long n = 1LL << logs[li];
      if (n > maxn) continue;
      fill(fill_name, in, n);
      double bytes = (double)n * tsize[t], cub_gbs = 0, ref = NAN;
      /* CUB and the strategies are timed in ROUNDS interleaved rounds and
       * each row is the median of its rounds: timed one after the other,
       * drift between them (clocks, the launch queue, HBM) looked like a
       * difference between identical kernels. */
      enum { ROUNDS = 5 };
      double us_r[NSTRAT][ROUNDS], cub_r[ROUNDS];
      const char *check[NSTRAT];
#ifdef GG_HAVE_CUB
      job cub = { .cub = 1, .cub_type = t == 0 ? CUB_REF_F32 : t == 1 ? CUB_REF_I32 : CUB_REF_F64,
                  .in = in, .out = out, .n = n };
      run_job(&cub);
      ref = read_result(out, t);
#endif
      for (int r = 0; r < ROUNDS; r++)
        for (int si = -1; si < NSTRAT; si++) {
          if (si < 0) {
#ifdef GG_HAVE_CUB
            cub_r[r] = time_job(&cub, (long long)bytes);
#endif
            continue;
          }
          snprintf(name, sizeof name, "sum_%s_%s", strategies[si], tnames[t]);
          job j = { .k = kernel(name), .args = { gg_arg_array(in), gg_arg_array(out), gg_arg_i64(n) } };
          us_r[si][r] = time_job(&j, (long long)bytes);
          double got = read_result(out, t);
          int ok = isnan(ref) || fabs(got - ref) <= (t == 1 ? 0 : 1e-6 * 3 * n);
          if (r == 0 || !ok) check[si] = isnan(ref) ? "-" : ok ? "ok" : "DIFF";
        }
#ifdef GG_HAVE_CUB
      double cus = median(cub_r, ROUNDS);
      cub_gbs = bytes / (cus * 1e3);
      row("reduce", "CUB", tnames[t], n, cus, cub_gbs, copy_gbs, cub_gbs, "ref");
#endif
      for (int si = 0; si < NSTRAT; si++) {
        double us = median(us_r[si], ROUNDS);
        row("reduce", strategies[si], tnames[t], n, us, bytes / (us * 1e3), copy_gbs, cub_gbs, check[si]);
      }
    }
  }

  if (want(only, "scan")) scan_table(in, scan_out, ref_out, maxn, copy_gbs);

  /* The lesson: 16M elements, one atomicAdd per element on one address. */
  long long n = 1LL << 24;
  if (n > maxn) n = maxn;
  if (want(only, "lesson")) {
    printf("\n### Atomics on one address, %lld elements (the lesson)\n\n", n);
    printf("| kernel                          | type |  time us |     GB/s |\n");
    printf("|---------------------------------|------|----------|----------|\n");
  }
  for (int t = 0; t < 2 && want(only, "lesson"); t++) {
    char name[64];
    snprintf(name, sizeof name, "fill_%s", tnames[t]);
    fill(name, in, n);
    static const char *const lesson[][2] = {
      { "atomic_each", "atomicAdd per element (raw)" },
      { "sum_global_atomic", "global_atomic (per thread)" },
      { "sum_shared_atomic", "shared_atomic (warp-aggregated)" },
      { "sum_auto", "auto (no atomics on data)" },
    };
    for (int l = 0; l < 4; l++) {
      snprintf(name, sizeof name, "%s_%s", lesson[l][0], tnames[t]);
      job j = { .k = kernel(name), .args = { gg_arg_array(in), gg_arg_array(out), gg_arg_i64(n) } };
      double us = time_job(&j, 1LL << 40); /* few reps: the raw one is slow */
      printf("| %-31s | %-4s | %8.1f | %8.1f |\n", lesson[l][1], tnames[t], us,
             (double)n * tsize[t] / (us * 1e3));
    }
  }
  if (want(only, "shapes")) shapes_table(in, out, maxn, copy_gbs);
  if (csv) fclose(csv);
  gg_array_free(in);
  gg_array_free(out);
  gg_array_free(scan_out);
  if (ref_out) gg_array_free(ref_out);
  gg_module_free(mod);
  gg_event_free(ev0);
  gg_event_free(ev1);
  gg_stream_free(stream);
  gg_context_free(ctx);
  return 0;
}
