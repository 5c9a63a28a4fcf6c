/*
 * test_reduce_plan.c - reduce_plan.c's choices (no GPU needed), then the
 * rendered reduce templates compiled for real with NVRTC and hiprtc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "source.h"
#include "gg.h"
#include "load.h"
#include "patterns.h"
#include "plan.h"
#include "specialize.h"
#include "../expect.h"

static ggi_param x_view = { .name = "x", .kind = GG_PARAM_VIEW, .dtype = GG_F32, .rank = 1,
                            .ext = { { "n", 0 } }, .access = GG_ACCESS_IN };

/* The plan of a reduce, scan or tile_reduce kernel, through its
 * pattern's row as plan.c calls it, from a cleared plan. */
static int reduce_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p,
                       ggi_diag *d)
{
  memset(p, 0, sizeof *p);
  return ggi_pattern_of(k->pattern)->plan(k, target, a, p, d);
}

static ggi_kernel base(gg_pattern pat, const char *extent, int64_t n)
{
  ggi_kernel k;
  memset(&k, 0, sizeof k);
  k.name = "k";
  k.pattern = pat;
  k.rank = 1;
  k.range[0].name = extent;
  k.range[0].value = n;
  k.index[0] = "i";
  k.nparams = 1;
  k.params = &x_view;
  k.nvalues = 1;
  k.values[0] = "x(i)";
  k.into = "out";
  k.acc_type = GG_F32;
  return k;
}

static const char *var(const ggi_plan *p, const char *key)
{
  for (int i = 0; i < p->nvars; i++)
    if (strcmp(p->keys[i], key) == 0) return p->values[i];
  return NULL;
}

static void test_auto(ggi_module *m)
{
  const char *why = NULL;
  ggi_plan p;
  ggi_diag d;
  int block, items, vec;

  /* <= 32K static elements: one block, warp shuffles */
  ggi_kernel k = base(GG_PATTERN_REDUCE, NULL, 1000);
  CHECK(ggi_reduce_auto(&k, &why) == GGI_STRAT_WARP_SHUFFLE && why && strstr(why, "one block"));
  ggi_reduce_shape(&k, &block, &items, &vec, &why);
  CHECK(block == 64 && vec == 4 && items == 16);
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.grid_rule == GG_GRID_FIXED && p.grid_fixed == 1);
  CHECK(p.nparts == 7 && strcmp(p.template_parts[0], "common/reduce_head.cuh") == 0);
  CHECK(strcmp(p.template_parts[1], "common/reduce_ops.cuh") == 0);
  CHECK(strcmp(p.template_parts[2], "common/reduce_fold.cuh") == 0);
  CHECK(strcmp(p.template_parts[3], "common/reduce_block_warp_shuffle.cuh") == 0);
  CHECK(strcmp(p.template_path, p.template_parts[0]) == 0);
  CHECK(strcmp(var(&p, "RVEC"), "4") == 0 && strcmp(var(&p, "VEC_PTR"), "x") == 0);

  k = base(GG_PATTERN_REDUCE, NULL, 32768);
  ggi_reduce_shape(&k, &block, NULL, NULL, NULL);
  CHECK(block == 1024);

  /* run-time size: multi-block with last-block combine, capped grid */
  k = base(GG_PATTERN_REDUCE, "n", 0);
  CHECK(ggi_reduce_auto(&k, &why) == GGI_STRAT_WARP_SHUFFLE && strstr(why, "last block"));
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.grid_rule == GG_GRID_COVER && p.cap_resident == 1 && p.ws_fixed == 128 && p.ws_per_block == 8);
  CHECK(p.features == 0);

  /* a value that is not a plain read: scalar loads */
  k.values[0] = "x(i) * x(i)";
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(strcmp(var(&p, "RVEC"), "1") == 0);
  k.values[0] = "  x( i ) ";
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(strcmp(var(&p, "RVEC"), "4") == 0);

  /* cooperative launch: grid_sync */
  k = base(GG_PATTERN_REDUCE, "n", 0);
  k.launch = GG_LAUNCH_COOPERATIVE;
  CHECK(ggi_reduce_auto(&k, NULL) == GGI_STRAT_GRID_SYNC);
}

/* A 2-D or 3-D range: with a run-time extent its size is gg_range_work()
 * (the overflow check), static ones keep emit.c's product.  Values with
 * their own operators take the per-value identity() and combine(). */
static void test_md_and_mixed(ggi_module *m)
{
  ggi_plan p;
  ggi_diag d;
  ggi_kernel k = base(GG_PATTERN_REDUCE, "n", 0);
  k.rank = 3;
  k.range[1].value = 7;
  k.range[2].name = "p";
  k.index[1] = "j";
  k.index[2] = "l";
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(strcmp(p.template_parts[1], "common/reduce_range.cuh") == 0);
  CHECK(var(&p, "WORK") && strcmp(var(&p, "WORK"), "gg_range_work((long long)(n), 7LL, (long long)(p))") == 0);
  CHECK(var(&p, "TRAP") && strcmp(var(&p, "TRAP"), "__trap()") == 0);
  CHECK(strcmp(var(&p, "RVEC"), "1") == 0); /* x(i) of a 3-D range is no contiguous stream */
  CHECK(reduce_plan(&k, GGI_TARGET_HIP, m->arena, &p, &d) == 0);
  CHECK(strcmp(var(&p, "TRAP"), "__builtin_trap()") == 0);
  k.range[0].name = k.range[2].name = NULL;
  k.range[0].value = 5;
  k.range[2].value = 9;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(strcmp(p.template_parts[1], "common/reduce_ops.cuh") == 0 && !var(&p, "WORK"));
  CHECK(p.grid_rule == GG_GRID_FIXED && p.grid_fixed == 1); /* 315 static elements: one block */

  k = base(GG_PATTERN_REDUCE, "n", 0);
  k.nvalues = 3;
  k.values[1] = k.values[2] = "x(i)";
  k.ops[0] = GGI_OP_MIN;
  k.ops[1] = GGI_OP_MAX;
  k.ops[2] = GGI_OP_MIN;
  k.op = GGI_OP_MIN;
  CHECK(ggi_ops_mixed(&k));
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(strcmp(p.template_parts[1], "common/reduce_ops_each.cuh") == 0);
  CHECK(strcmp(var(&p, "IDENTITY_EACH"), "  a.v[0] = (acc_t)((GG_INF));\n  a.v[1] = (acc_t)((-GG_INF));\n"
                                         "  a.v[2] = (acc_t)((GG_INF));") == 0);
  CHECK(strstr(var(&p, "COMBINE_EACH"), "a.v[1] = gg_op_max()(a.v[1], b.v[1]);") != NULL);
  k.ops[1] = GGI_OP_MIN;
  CHECK(!ggi_ops_mixed(&k));
  k.nvalues = 1;
  k.ops[1] = GGI_OP_MAX; /* past nvalues: not a value */
  CHECK(!ggi_ops_mixed(&k));
}

static void test_strategies(ggi_module *m)
{
  ggi_plan p;
  ggi_diag d;
  const char *why;
  ggi_kernel k = base(GG_PATTERN_REDUCE, "n", 0);

  /* the pieces of each strategy, in order, after reduce_head.cuh;
   * auto and deterministic are warp_shuffle's pieces (a different grid) */
  static const char *const parts[GGI_STRAT_COUNT] = {
    [GGI_STRAT_AUTO] = "block_warp_shuffle workspace finish_ticket tail_ticket",
    [GGI_STRAT_GLOBAL_ATOMIC] = "workspace atomic tail_global_atomic",
    [GGI_STRAT_SHARED_ATOMIC] = "block_warp_shuffle workspace atomic tail_shared_atomic",
    [GGI_STRAT_WARP_SHUFFLE] = "block_warp_shuffle workspace finish_ticket tail_ticket",
    [GGI_STRAT_SHARED_TREE] = "block_shared_tree workspace finish_ticket tail_ticket",
    [GGI_STRAT_CG_TILE] = "block_cg_tile workspace finish_ticket tail_ticket",
    [GGI_STRAT_GRID_SYNC] = "block_warp_shuffle workspace tail_grid_sync",
    [GGI_STRAT_DETERMINISTIC] = "block_warp_shuffle workspace finish_ticket tail_ticket",
  };
  for (int s = 0; s < GGI_STRAT_COUNT; s++) {
    char want[256] = "head ops fold", got[256] = "";
    k.spec.strategy = (ggi_strategy)s;
    CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
    snprintf(want + 13, sizeof want - 13, " %s", parts[s]);
    for (int i = 0; i < p.nparts; i++) {
      CHECK(strncmp(p.template_parts[i], "common/reduce_", 14) == 0);
      size_t len = strlen(got);
      snprintf(got + len, sizeof got - len, "%s%.*s", i ? " " : "",
               (int)(strlen(p.template_parts[i]) - 14 - 4), p.template_parts[i] + 14);
    }
    CHECK(strcmp(got, want) == 0);
  }
  CHECK(strcmp(ggi_strategy_name(GGI_STRAT_CG_TILE), "cg_tile") == 0);
  CHECK(strcmp(ggi_strategy_name(GGI_STRAT_COUNT), "?") == 0);

  k.spec.strategy = GGI_STRAT_GRID_SYNC;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.grid_rule == GG_GRID_RESIDENT && (p.features & GG_FEAT_COOPERATIVE));

  /* deterministic: a grid that does not depend on the device */
  k.spec.strategy = GGI_STRAT_DETERMINISTIC;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.grid_rule == GG_GRID_FIXED && p.grid_fixed == 256 && p.cap_resident == 0);
  ggi_kernel ks = base(GG_PATTERN_REDUCE, NULL, 100000);
  ks.spec.strategy = GGI_STRAT_DETERMINISTIC;
  CHECK(reduce_plan(&ks, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.grid_rule == GG_GRID_FIXED && p.grid_fixed == (100000 + 4095) / 4096);

  /* atomics: float sum is native, float max and prod are CAS loops */
  k.spec.strategy = GGI_STRAT_GLOBAL_ATOMIC;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK((p.features & GG_FEAT_FLOAT_ATOMIC) && !(p.features & GG_FEAT_CAS_EMULATION));
  CHECK(strcmp(var(&p, "RED_ATOMIC"), "gg_atomic_add(p, v);") == 0);
  CHECK(strcmp(var(&p, "WS_INIT"), "0") == 0);
  CHECK(ggi_reduce_needs_cas(&k, GGI_TARGET_CUDA, &why) == 0);
  k.op = GGI_OP_MAX;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.features & GG_FEAT_CAS_EMULATION);
  CHECK(strcmp(var(&p, "WS_INIT"), "1") == 0);
  CHECK(ggi_reduce_needs_cas(&k, GGI_TARGET_CUDA, &why) == 1 && strstr(why, "compare-and-swap"));
  k.op = GGI_OP_PROD;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(strstr(var(&p, "RED_ATOMIC"), "gg_atomic_cas_combine"));
  /* integer min: native on CUDA, 64-bit a CAS loop on HIP 5.2 */
  k.op = GGI_OP_MIN;
  k.acc_type = GG_I64;
  CHECK(ggi_reduce_needs_cas(&k, GGI_TARGET_CUDA, NULL) == 0);
  CHECK(ggi_reduce_needs_cas(&k, GGI_TARGET_HIP, NULL) == 1);
  /* warp_shuffle never needs an atomic on the data */
  k.spec.strategy = GGI_STRAT_WARP_SHUFFLE;
  k.acc_type = GG_F32;
  CHECK(ggi_reduce_needs_cas(&k, GGI_TARGET_CUDA, NULL) == 0);

  /* f16 sums accumulate in f32: workspace slots of 4 bytes, half feature */
  static ggi_param h = { .name = "h", .kind = GG_PARAM_VIEW, .dtype = GG_F16, .rank = 1,
                         .ext = { { "n", 0 } } };
  ggi_kernel kh = base(GG_PATTERN_REDUCE, "n", 0);
  kh.params = &h;
  kh.values[0] = "h(i)";
  kh.acc_type = GG_F16;
  CHECK(reduce_plan(&kh, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.ws_per_block == 8 && (p.features & GG_FEAT_HALF) && strcmp(var(&p, "RVEC"), "8") == 0);

  /* multi-value: one workspace slot per value */
  k = base(GG_PATTERN_REDUCE, "n", 0);
  k.nvalues = 3;
  k.values[1] = "x(i) * x(i)";
  k.values[2] = "1";
  k.acc_type = GG_F64;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  CHECK(p.ws_per_block == 24 && strcmp(var(&p, "RVEC"), "1") == 0);
}

static void test_scan_tile(ggi_module *m)
{
  ggi_plan p;
  ggi_diag d;
  ggi_kernel k = base(GG_PATTERN_SCAN, "n", 0);
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
  /* 4-byte sums: one 64-bit word per tile state, in slots of two words */
  CHECK(p.needs_seq && p.ws_fixed == 262144 * 16 && p.ws_per_block == 0 && p.cap_resident == 0);
  CHECK(strcmp(var(&p, "SCAN_ITEMS"), "16") == 0 && strcmp(var(&p, "SCAN_WORDS"), "1") == 0);
  CHECK(strcmp(var(&p, "SCAN_SLOT_WORDS"), "2") == 0);
  /* 256 x 16 tile + pads + 66 warp sums + broadcast, 4 bytes each */
  CHECK(p.shared_bytes == (uint32_t)((4096 + 128 + 1 + 66 + 1) * 4));
  /* f32: a classic launch calls the body that strides by the block and
     reads its items again from shared memory */
  CHECK(strcmp(var(&p, "LAUNCH_BODY"), "gg_body_block") == 0);
  CHECK(strcmp(var(&p, "SCAN_KEEP_ITEMS"), "0") == 0);
  /* 4-byte integers: the run-time stride, the items kept in registers */
  static const gg_dtype ints[] = { GG_I32, GG_U32 };
  for (int i = 0; i < 2; i++) {
    k.acc_type = ints[i];
    CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
    CHECK(strcmp(var(&p, "LAUNCH_BODY"), "gg_body") == 0);
    CHECK(strcmp(var(&p, "SCAN_KEEP_ITEMS"), "1") == 0 && p.ws_fixed == 262144 * 16);
  }
  /* 8-byte sums: two words, 16 items (a 32 KiB tile), a pad element per
     16 (128 bytes: a half-warp's bank pairs) */
  static const gg_dtype wide[] = { GG_F64, GG_I64, GG_U64 };
  for (int i = 0; i < 3; i++) {
    k.acc_type = wide[i];
    CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
    CHECK(p.ws_fixed == 262144 * 16 && strcmp(var(&p, "SCAN_ITEMS"), "16") == 0);
    CHECK(strcmp(var(&p, "SCAN_WORDS"), "2") == 0 && strcmp(var(&p, "SCAN_SLOT_WORDS"), "2") == 0);
    CHECK(strcmp(var(&p, "LAUNCH_BODY"), "gg_body_block") == 0);
    CHECK(strcmp(var(&p, "SCAN_PAD_EVERY"), "16") == 0);
    CHECK(p.shared_bytes == (uint32_t)((4096 + 256 + 1 + 66 + 1) * 8));
  }

  static const int tiles[] = { 2, 3, 7, 16, 31, 32, 33, 100, 1024 };
  static const char *const teams[] = { "2", "4", "8", "16", "32", "32", "32", "32", "32" };
  for (int i = 0; i < 9; i++) {
    k = base(GG_PATTERN_TILE_REDUCE, "n", 0);
    k.tile = tiles[i];
    CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0);
    CHECK(strcmp(var(&p, "TEAM"), teams[i]) == 0);
  }
  k.tile = 1025; /* the row's message has no place: plan.c puts the kernel's line before it */
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == -1 &&
        strcmp(d.msg, "tile = 1025, allowed 2..1024") == 0);
  /* each pattern's row names its own planner: scan's and tile_reduce's
     templates, never the reduce's pieces; a for kernel's is for.cuh */
  k = base(GG_PATTERN_SCAN, "n", 0);
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0 && p.nparts == 0 &&
        p.template_path && strcmp(p.template_path, "common/scan.cuh") == 0);
  k = base(GG_PATTERN_TILE_REDUCE, "n", 0);
  k.tile = 7;
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0 && p.nparts == 0 &&
        p.template_path && strcmp(p.template_path, "common/tile_reduce.cuh") == 0);
  k = base(GG_PATTERN_FOR, "n", 0);
  CHECK(reduce_plan(&k, GGI_TARGET_CUDA, m->arena, &p, &d) == 0 && p.template_path &&
        strcmp(p.template_path, "common/for.cuh") == 0);
}

/* Load and specialize a workload given as text; 0 or -1 with d->msg. */
static int load_text(const char *text, ggi_module **m, ggi_diag *d)
{
  *m = NULL;
  if (ggi_load("t.lua", text, strlen(text), m, d) != 0) return -1;
  if (ggi_specialize(*m, d) != 0) {
    ggi_module_free(*m);
    *m = NULL;
    return -1;
  }
  return 0;
}

static int refused(const char *text, const char *want1, const char *want2)
{
  ggi_module *m;
  ggi_diag d = {{0}};
  if (load_text(text, &m, &d) == 0) {
    ggi_module_free(m);
    printf("  accepted, want \"%s\"\n", want1);
    return 0;
  }
  int ok = strstr(d.msg, want1) && (!want2 || strstr(d.msg, want2));
  if (!ok) printf("  got: %s\n", d.msg);
  return ok;
}

#define RED(type, extra)                                                                    \
  "kernel \"r\" {\n  pattern = \"reduce\", range = { \"n\" },\n"                          \
  "  params = { { \"x\", \"" type "[n]\" }, { \"o\", \"" type "[1]\", access = \"out\" } },\n" \
  "  value = \"x(i)\", into = \"o\",\n" extra "\n}\n"

/* Knobs are used as written or refused: never silently changed. */
static void test_knobs(void)
{
  /* vector: 1 or the 16-byte width of a plain read */
  CHECK(refused(RED("f64", "  op = \"sum\",\n  vector = 8,"), "t.lua:6:", "allowed: 1 or 2"));
  CHECK(refused(RED("f32", "  op = \"sum\",\n  vector = 2,"), "t.lua:6:", "allowed: 1 or 4"));
  ggi_module *m;
  ggi_diag d;
  CHECK(load_text(RED("f64", "  op = \"sum\", vector = 2,"), &m, &d) == 0 && m->kernels[0].spec.vector == 2);
  if (m) ggi_module_free(m);
  /* tile_reduce has one strategy: naming one is refused, not ignored */
  CHECK(refused("kernel \"t\" {\n  pattern = \"tile_reduce\", range = { \"n\" }, tile = 8,\n"
                "  params = { { \"x\", \"f32[n]\" }, { \"o\", \"f32[m]\", access = \"out\" } },\n"
                "  value = \"x(i)\", op = \"sum\", into = \"o\",\n  strategy = \"shared_tree\",\n}\n",
                "t.lua:5:", "'strategy' does not apply"));
  /* one CAS rule for loader and planner: i64 min by atomics is a CAS loop
   * on HIP, so a module for both targets must say allow_cas */
  CHECK(refused(RED("i64", "  op = \"min\",\n  strategy = \"global_atomic\","), "t.lua:6:",
                "compare-and-swap"));
  const char *cuda_only = "module { name = \"c\", targets = { \"cuda\" } }\n" RED("i64", "  op = \"min\", strategy = \"global_atomic\",");
  CHECK(load_text(cuda_only, &m, &d) == 0 && !m->kernels[0].spec.cas_emulation);
  if (m) ggi_module_free(m);
  CHECK(load_text(RED("i64", "  op = \"min\", strategy = \"global_atomic\", allow_cas = true,"), &m, &d) == 0
        && m->kernels[0].spec.cas_emulation);
  if (m) ggi_module_free(m);
  for (int op = GGI_OP_SUM; op <= GGI_OP_CUSTOM; op++)
    for (int t = GG_I32; t <= GG_F64; t++)
      CHECK(ggi_atomic_needs_cas((ggi_op)op, (gg_dtype)t, (gg_dtype)t, GGI_TARGET_CUDA | GGI_TARGET_HIP)
            == (ggi_atomic_needs_cas((ggi_op)op, (gg_dtype)t, (gg_dtype)t, GGI_TARGET_CUDA)
                || ggi_atomic_needs_cas((ggi_op)op, (gg_dtype)t, (gg_dtype)t, GGI_TARGET_HIP)));
  /* shared memory no device holds: 1024 x 32 f64 scan items */
  CHECK(refused("kernel \"s\" {\n  pattern = \"scan\", range = { \"n\" }, block = 1024, items = 32,\n"
                "  params = { { \"x\", \"f64[n]\" }, { \"o\", \"f64[n]\", access = \"out\" } },\n"
                "  value = \"x(i)\", op = \"sum\", into = \"o\",\n}\n",
                "t.lua:1:", "shared memory"));
}

static int persistent_plan(const char *text, ggi_persistent_shape *s, ggi_diag *d)
{
  ggi_module *m;
  /* the plan stage (run by ggi_specialize) refuses a persistent kernel
   * whose shape does not fit: then d->msg is its message */
  if (load_text(text, &m, d) != 0) return -1;
  const ggi_persistent_shape *ps = ggi_shape_of(&m->persistent[0], GGI_TARGET_CUDA);
  int rc = ps ? 0 : ggi_fail(d, "no cuda shape stored");
  if (ps) *s = *ps;
  ggi_module_free(m);
  return rc;
}

#define TEAM256                                                                              \
  "module { name = \"p\", targets = { \"cuda\" } }\n"                                        \
  "kernel \"tm\" { pattern = \"team\", league = \"L\", team_size = 256,\n"                 \
  "  params = { { \"y\", \"f32[L]\", access = \"out\" } },\n"                              \
  "  body = \"float s = team_sum(1.0f); if (team_rank == 0) y(league_rank) = s;\" }\n"
#define SCAN(blk, items)                                                                      \
  "kernel \"sc\" { pattern = \"scan\", range = { \"n\" }, block = " blk ", items = " items ",\n" \
  "  params = { { \"x\", \"f64[n]\" }, { \"o\", \"f64[n]\", access = \"out\" } },\n"   \
  "  value = \"x(i)\", op = \"sum\", into = \"o\" }\n"

/* The persistent plan: every command checked against the shape it runs
 * in, its workspace planned for the virtual grid. */
static void test_persistent_plan(void)
{
  ggi_persistent_shape s;
  ggi_diag d = {{0}};
  /* a team needs all its threads: block 128 < team_size 256 */
  CHECK(persistent_plan(TEAM256 "persistent \"p\" { layout = \"one_block\", commands = { \"tm\" }, block = 128 }\n",
                        &s, &d) == -1 && strstr(d.msg, "t.lua:5:") && strstr(d.msg, "team of 256"));
  CHECK(persistent_plan(TEAM256 "persistent \"p\" { layout = \"hybrid\", commands = { \"tm\" }, block = 256, groups = 2 }\n",
                        &s, &d) == -1 && strstr(d.msg, "team of 256"));
  CHECK(persistent_plan(TEAM256 "persistent \"p\" { layout = \"many_blocks\", commands = { \"tm\" }, block = 256 }\n",
                        &s, &d) == 0 && s.cmd[0].min_threads == 256);
  /* a scan's tile is sized for its block: a larger pseudo-block is refused */
  CHECK(persistent_plan("module { name = \"p\", targets = { \"cuda\" } }\n" SCAN("128", "16")
                        "persistent \"p\" { layout = \"one_block\", commands = { \"sc\" }, block = 256 }\n",
                        &s, &d) == -1 && strstr(d.msg, "128 threads"));
  /* 7 pseudo-blocks x 34 KB: more than any CUDA block holds */
  CHECK(persistent_plan("module { name = \"p\", targets = { \"cuda\" } }\n" SCAN("128", "32")
                        "persistent \"p\" { layout = \"thread_groups\", commands = { \"sc\" }, block = 896, groups = 7 }\n",
                        &s, &d) == -1 && strstr(d.msg, "t.lua:5:") && strstr(d.msg, "at most 232448"));
  /* 3 of them: 100 KB, above the 48 KB default, within the opt-in */
  CHECK(persistent_plan("module { name = \"p\", targets = { \"cuda\" } }\n" SCAN("128", "32")
                        "persistent \"p\" { layout = \"thread_groups\", commands = { \"sc\" }, block = 384, groups = 3 }\n",
                        &s, &d) == 0 && s.shared_bytes > 48 * 1024 && s.shared_bytes == 3 * s.group_smem
        && s.group_smem % 16 == 0);
  /* a reduce's workspace: per pseudo-block of the virtual grid */
  CHECK(persistent_plan("module { name = \"p\", targets = { \"cuda\" } }\n" RED("f64", "  op = \"max\",")
                        "persistent \"p\" { layout = \"hybrid\", commands = { \"r\" }, block = 256, groups = 2 }\n",
                        &s, &d) == 0 && s.cmd[0].ws_fixed == 128 && s.cmd[0].ws_per_block == 8
        && s.group_threads == 128);
}

/* Render compile_check.lua and compile it: NVRTC sm_80/sm_90, hiprtc gfx90a/gfx1030. */
static void test_compile(const char *lua)
{
  ggi_module *m;
  ggi_diag d;
  if (ggi_load(lua, NULL, 0, &m, &d) || ggi_specialize(m, &d)) {
    printf("FAIL load %s: %s\n", lua, d.msg);
    failures++;
    return;
  }
  static const struct { gg_backend be; unsigned target; const char *arch; } runs[] = {
    { GG_BACKEND_CUDA, GGI_TARGET_CUDA, "sm_80" },
    { GG_BACKEND_CUDA, GGI_TARGET_CUDA, "sm_90" },
    { GG_BACKEND_HIP, GGI_TARGET_HIP, "gfx90a" },  /* 64-lane wavefronts */
    { GG_BACKEND_HIP, GGI_TARGET_HIP, "gfx1030" }, /* 32-lane wavefronts */
  };
  for (int r = 0; r < 4; r++) {
    char *src;
    if (ggi_render_source(m, runs[r].target, NULL, &src, &d)) {
      printf("FAIL render %s: %s\n", runs[r].arch, d.msg);
      failures++;
      continue;
    }
    if (!gg_arch_supported(runs[r].be, runs[r].arch)) {
      printf("skip %s: compiler not available here\n", runs[r].arch);
      free(src);
      continue;
    }
    gg_compile_result res;
    gg_status st = gg_compile(runs[r].be, runs[r].arch, "compile_check", src, NULL, &res);
    if (st == GG_ERR_NO_LIBRARY) {
      printf("skip %s: %s\n", runs[r].arch, res.log ? res.log : "no compiler library");
    } else if (st != GG_OK) {
      printf("FAIL compile %s: %s\n%s\n", runs[r].arch, gg_strerror(st), res.log ? res.log : "");
      failures++;
    } else {
      printf("ok %s: %zu bytes\n", runs[r].arch, res.binary_size);
    }
    gg_compile_result_free(&res);
    free(src);
  }
  ggi_module_free(m);
}

int main(int argc, char **argv)
{
  ggi_module *m = ggi_module_new("test.lua");
  if (!m) return 1;
  test_auto(m);
  test_strategies(m);
  test_md_and_mixed(m);
  test_scan_tile(m);
  ggi_module_free(m);
  test_knobs();
  test_persistent_plan();
  if (argc > 1) test_compile(argv[1]);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
