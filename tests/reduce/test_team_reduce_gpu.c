/*
 * test_team_reduce_gpu.c - every kernel of team_all.lua against a CPU
 * reference, through `gpugen emit` and the runtime: leagues 0 (the
 * identity), 1, 7, 1000 and 100003 (more teams than co-resident blocks)
 * of rows 1 .. 1001 wide, team sizes 32, 128 and 1024, sum and max on
 * i64 and f64; scratch read while other warps combine; the deterministic
 * strategy bit-identical run to run; and the same kernels as commands of
 * a one_block and a many_blocks persistent kernel.  Integers compare
 * exactly, f64 sums within 1e-12 of the sum of magnitudes.  Exits 77
 * without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "team_all.h"
#include "../gg_check.h"

#define MAXN 4000000LL /* elements the buffer holds: the largest case */
static int failures, checks;
static gg_context *ctx;
static gg_module *mod;
static gg_array *d_a, *d_out;
static long long *hi;
static double *hf;

static const long long shapes[][2] = { { 0, 5 }, { 1, 1 }, { 1, 3001 }, { 7, 37 }, { 1000, 129 },
                                       { 100003, 37 } };
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

static void die(const char *what, gg_status s)
{
  fprintf(stderr, "FAIL %s: %s: %s\n", what, gg_strerror(s), gg_error_detail());
  exit(1);
}

static uint64_t rng = 88172645463325252ull;
static long long next_int(long long lo, long long hi_)
{
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return lo + (long long)(rng % (uint64_t)(hi_ - lo + 1));
}

/* New data for a rows x cols case, on the host and the device. */
static void fill(long long rows, long long cols, int f64)
{
  for (long long i = 0; i < rows * cols; i++) {
    hi[i] = next_int(-1000000, 1000000);
    hf[i] = (double)next_int(-1000000, 1000000) * 1e-3;
  }
  gg_status st = gg_copy_from_host(d_a, 0, f64 ? (void *)hf : (void *)hi, (size_t)(rows * cols) * 8, NULL);
  if (st) die("copy", st);
}

/* The references: element (r, c) weighs 1 + r % 5; slot 0 sum or max,
 * slot 1 the max (tr_scratch); mag: sum of magnitudes. */
static void reference(long long rows, long long cols, int f64, int max, double *want, long long *iwant,
                      double *mag)
{
  double s = 0, m = -INFINITY;
  long long is = 0, im = INT64_MIN;
  *mag = 0;
  for (long long r = 0; r < rows; r++)
    for (long long c = 0; c < cols; c++) {
      long long w = 1 + r % 5;
      double v = hf[r * cols + c] * (double)w;
      long long iv = hi[r * cols + c] * w;
      s += v; m = v > m ? v : m; is += iv; im = iv > im ? iv : im;
      *mag += fabs(v);
    }
  want[0] = max ? m : s;
  want[1] = m;
  *iwant = max ? im : is;
  (void)f64;
}

static int same(double got, double want, int max, double mag)
{
  return max ? got == want : fabs(got - want) <= 1e-12 * mag + 1e-300;
}

static gg_status launch(const char *name, long long rows, long long cols)
{
  gg_kernel *k;
  gg_status st = gg_kernel_get(mod, name, &k);
  if (st) return st;
  gg_arg a[4] = { gg_arg_array(d_a), gg_arg_array(d_out), gg_arg_i64(rows), gg_arg_i64(cols) };
  return gg_launch(k, NULL, a, 4);
}

/* One kernel over every shape: run, copy back, compare. */
static void check(const char *name, int f64, int max, int nvals)
{
  for (int si = 0; si < NSHAPES; si++) {
    long long rows = shapes[si][0], cols = shapes[si][1], iwant, igot[2] = { -77, -77 };
    double want[2], got[2] = { -77, -77 }, mag;
    fill(rows, cols, f64);
    reference(rows, cols, f64, max, want, &iwant, &mag);
    gg_status st = launch(name, rows, cols);
    if (st) die(name, st);
    if ((st = gg_copy_to_host(f64 ? (void *)got : (void *)igot, d_out, 0, (size_t)nvals * 8, NULL)))
      die("copy", st);
    checks++;
    int ok = f64 ? same(got[0], want[0], max, mag) && (nvals < 2 || got[1] == want[1]) : igot[0] == iwant;
    if (!ok) {
      failures++;
      printf("FAIL %s %lldx%lld: got %.17g %.17g want %.17g %.17g\n", name, rows, cols,
             f64 ? got[0] : (double)igot[0], got[1], f64 ? want[0] : (double)iwant, want[1]);
    }
  }
}

/* deterministic: the same bits on every launch */
static void check_det(void)
{
  long long rows = 100003, cols = 37;
  double first = 0, got;
  fill(rows, cols, 1);
  for (int rep = 0; rep < 5; rep++) {
    gg_status st = launch("tr_det", rows, cols);
    if (st) die("tr_det", st);
    if ((st = gg_copy_to_host(&got, d_out, 0, 8, NULL))) die("copy", st);
    if (rep == 0) first = got;
    checks++;
    if (memcmp(&got, &first, 8) != 0) {
      failures++;
      printf("FAIL tr_det launch %d: %.17g differs from %.17g\n", rep, got, first);
    }
  }
}

/* The same kernels as commands of a persistent kernel. */
static void check_session(const char *pname)
{
  gg_session *s;
  gg_session_options opt = { 0 };
  gg_status st = gg_session_open(mod, pname, &opt, &s);
  if (st) die(pname, st);
  static const char *const cmds[2] = { "tr_sum_f64_128", "tr_max_i64_128" };
  for (int c = 0; c < 2; c++) {
    int id;
    if ((st = gg_session_command(s, cmds[c], &id))) die(cmds[c], st);
    for (int si = 0; si < NSHAPES; si++) {
      long long rows = shapes[si][0], cols = shapes[si][1], iwant, igot = -77;
      double want[2], got = -77, mag;
      fill(rows, cols, c == 0);
      reference(rows, cols, c == 0, c == 1, want, &iwant, &mag);
      gg_arg a[4] = { gg_arg_array(d_a), gg_arg_array(d_out), gg_arg_i64(rows), gg_arg_i64(cols) };
      if ((st = gg_session_run(s, id, a, 4, 10000000000LL))) die(cmds[c], st);
      if ((st = gg_copy_to_host(c == 0 ? (void *)&got : (void *)&igot, d_out, 0, 8, NULL))) die("copy", st);
      checks++;
      if (c == 0 ? !same(got, want[0], 0, mag) : igot != iwant) {
        failures++;
        printf("FAIL %s %s %lldx%lld: got %.17g want %.17g\n", pname, cmds[c], rows, cols,
               c == 0 ? got : (double)igot, c == 0 ? want[0] : (double)iwant);
      }
    }
  }
  if ((st = gg_session_terminate(s))) die("terminate", st);
  gg_session_free(s);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_status st;
  if ((st = gg_module_load(ctx, &gg_module_team_all, &mod))) die("module load", st);
  if ((st = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)MAXN * 8, &d_a))) die("alloc", st);
  if ((st = gg_array_alloc(ctx, GG_SPACE_DEVICE, 64, &d_out))) die("alloc", st);
  hi = malloc((size_t)MAXN * 8);
  hf = malloc((size_t)MAXN * 8);
  static const int sizes[] = { 32, 128, 1024 };
  for (int z = 0; z < 3; z++)
    for (int op = 0; op < 2; op++)
      for (int f64 = 0; f64 < 2; f64++) {
        char name[64];
        snprintf(name, sizeof name, "tr_%s_%s_%d", op ? "max" : "sum", f64 ? "f64" : "i64", sizes[z]);
        check(name, f64, op, 1);
      }
  check("tr_scratch", 1, 0, 2);
  check_det();
  check_session("tr_one");
  check_session("tr_many");
  printf("%d checks, %d failures (device %s)\n", checks, failures, gg_context_device_name(ctx));
  gg_array_free(d_a);
  gg_array_free(d_out);
  gg_module_free(mod);
  gg_context_free(ctx);
  free(hi);
  free(hf);
  return failures ? 1 : 0;
}
