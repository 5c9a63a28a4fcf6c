/*
 * test_decide_once.c - persistent kernels whose commands need a workspace
 * (multi-block reductions of every op, the atomic strategies, a scan) on
 * many_blocks and hybrid layouts of 256-thread blocks, and a
 * thread_groups kernel needing ~100 KiB of shared memory per block
 * (tests/persistent/decide_once.lua).  Every command runs at sizes 1000,
 * 4097 and 1 << 20, twice through gg_session_start and twice through
 * gg_session_start_packed with the output of gg_pack_args (whose hidden
 * workspace field is NULL: the session must fill it), each checked
 * against a CPU reference.  Every wait has a timeout, so a hang is a
 * failure.  Label gpu; exit 77 without one.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide_once.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll /* a frame of 1M elements takes well under 1 ms */
#define MAXN (1 << 20)

static gg_context *ctx;
static int failures;


static gg_array *ax, *ay;
static unsigned char *hx, *hy;

typedef enum { T_I32, T_I64, T_F32, T_F64 } ty;
typedef enum { O_SUM, O_MIN, O_MAX, O_PROD, O_SCAN } op;

typedef struct cmd_case {
  const char *name;
  ty t;
  op o;
} cmd_case;

static const cmd_case cases[] = {
  {"sum_f32", T_F32, O_SUM},   {"sum_i64", T_I64, O_SUM},
  {"min_i32", T_I32, O_MIN},   {"max_f64", T_F64, O_MAX},
  {"prod_f64", T_F64, O_PROD}, {"sum_f32_shared_atomic", T_F32, O_SUM},
  {"max_i32_global_atomic", T_I32, O_MAX}, {"min_f32_tree", T_F32, O_MIN},
  {"scan_i32", T_I32, O_SCAN}, {"scan_big_f64", T_F64, O_SCAN},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static size_t tsize(ty t) { return t == T_I32 || t == T_F32 ? 4 : 8; }

/* Element i of frame `seed` as a double; exact in every type.  prod: 1
 * except a few 2s and 0.5s, so the product is exact too. */
static double value(op o, long long i, int seed)
{
  if (o == O_PROD) return i % 97 == (seed % 97) ? 2.0 : i % 89 == 0 ? 0.5 : 1.0;
  return (double)((i * 7919 + seed * 131) % 2001) - 1000.0;
}

static void put(ty t, unsigned char *p, long long i, double v)
{
  switch (t) {
  case T_I32: ((int32_t *)p)[i] = (int32_t)v; break;
  case T_I64: ((int64_t *)p)[i] = (int64_t)v; break;
  case T_F32: ((float *)p)[i] = (float)v; break;
  case T_F64: ((double *)p)[i] = v; break;
  }
}

static double get(ty t, const unsigned char *p, long long i)
{
  switch (t) {
  case T_I32: return ((const int32_t *)p)[i];
  case T_I64: return (double)((const int64_t *)p)[i];
  case T_F32: return ((const float *)p)[i];
  default: return ((const double *)p)[i];
  }
}

/* Start one frame (packed or not), wait with a timeout, check it. */
static void frame(gg_session *s, int cmd, const cmd_case *c, gg_kernel *k, long long n,
                  int packed, int seed, const char *pname)
{
  double want = c->o == O_SUM ? 0 : c->o == O_PROD ? 1 : c->o == O_MIN ? INFINITY : -INFINITY;
  double mag = 0;
  for (long long i = 0; i < n; i++) {
    double v = value(c->o, i, seed);
    put(c->t, hx, i, v);
    mag += fabs(v);
    if (c->o == O_SUM) want += v;
    else if (c->o == O_PROD) want *= v;
    else if (c->o == O_MIN) want = v < want ? v : want;
    else if (c->o == O_MAX) want = v > want ? v : want;
  }
  memset(hy, 0xab, (size_t)n * tsize(c->t) > 64 ? (size_t)n * tsize(c->t) : 64);
  gg_arg args[3] = {gg_arg_array(ax), gg_arg_array(ay), gg_arg_i64(n)};
  uint64_t f;
  if (packed) {
    const gg_kernel_desc *kd = gg_kernel_describe(k);
    unsigned char buf[256];
    if (kd->args_size > sizeof buf) exit(1);
    CHECK_OK(gg_pack_args(kd, args, 3, buf, sizeof buf));
    CHECK_OK(gg_session_start_packed(s, cmd, buf, kd->args_size, &f));
  } else {
    CHECK_OK(gg_session_start(s, cmd, args, 3, &f));
  }
  gg_status st = gg_session_wait(s, WAIT_NS);
  if (st) {
    fprintf(stderr, "FAIL %s %s n=%lld %s: %s: %s\n", pname, c->name, n,
            packed ? "start_packed" : "start", gg_strerror(st), gg_error_detail());
    exit(1); /* the session is stuck or gone: nothing more to learn from it */
  }
  if (c->o == O_SCAN) {
    double run = 0;
    for (long long i = 0; i < n; i++) {
      run += get(c->t, hx, i);
      if (get(c->t, hy, i) != run) {
        fprintf(stderr, "FAIL %s %s n=%lld %s: y[%lld] = %.17g, want %.17g\n", pname, c->name,
                n, packed ? "start_packed" : "start", i, get(c->t, hy, i), run);
        failures++;
        return;
      }
    }
    return;
  }
  double got = get(c->t, hy, 0);
  double tol = c->t == T_F32 && c->o == O_SUM ? 1e-6 * mag + 1e-3 : 0;
  if (!(fabs(got - want) <= tol)) {
    fprintf(stderr, "FAIL %s %s n=%lld %s: got %.17g, want %.17g\n", pname, c->name, n,
            packed ? "start_packed" : "start", got, want);
    failures++;
  }
}

static void run_persistent(gg_module *mod, const char *pname)
{
  gg_session *s;
  gg_session_options opt = {0};
  CHECK_OK(gg_session_open(mod, pname, &opt, &s));
  printf("%s: %d blocks\n", pname, gg_session_blocks(s));
  static const long long sizes[] = {1000, 4097, MAXN};
  int seed = 1;
  for (int ci = 0; ci < NCASES; ci++) {
    int cmd;
    if (gg_session_command(s, cases[ci].name, &cmd)) continue; /* not in this kernel */
    gg_kernel *k;
    CHECK_OK(gg_kernel_get(mod, cases[ci].name, &k));
    int before = failures;
    for (int si = 0; si < 3; si++)
      for (int rep = 0; rep < 4; rep++)
        frame(s, cmd, &cases[ci], k, sizes[si], rep >= 2, seed++, pname);
    printf("%s %s %s\n", failures > before ? "FAIL" : "ok", pname, cases[ci].name);
    fflush(stdout);
  }
  gg_status st = gg_session_terminate(s);
  if (st) {
    fprintf(stderr, "FAIL terminate %s: %s\n", pname, gg_error_detail());
    failures++;
  }
  gg_session_free(s);
}

int main(void)
{
  ctx = gg_check_open(NULL);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_decide_once, &mod));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, (size_t)MAXN * 8, &ax));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, (size_t)MAXN * 8, &ay));
  hx = gg_array_host(ax);
  hy = gg_array_host(ay);
  run_persistent(mod, "many");
  run_persistent(mod, "hyb");
  run_persistent(mod, "big");
  printf("%s (%d failures, device %s)\n", failures ? "FAILED" : "ok", failures,
         gg_context_device_name(ctx));
  gg_array_free(ax);
  gg_array_free(ay);
  gg_module_free(mod);
  gg_context_free(ctx);
  return failures ? 1 : 0;
}
