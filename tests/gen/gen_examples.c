/*
 * gen_examples - every example loads and validates into the IR we expect,
 * and small in-memory workloads check what the examples do not show:
 * defaults, the order of run-time extents, the lines `#line` will name,
 * and extents that are not powers of two.
 *
 *   gen_examples EXAMPLES_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

static int failures;

#define CHECK(cond)                                                         \
  do {                                                                      \
    if (!(cond)) {                                                          \
      printf("FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, where);    \
      failures++;                                                           \
    }                                                                       \
  } while (0)

static const char *where = "";

static ggi_module *load_file(const char *dir, const char *name) {
  static char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  where = name;
  ggi_module *m = NULL;
  ggi_diag d;
  if (ggi_load(path, NULL, 0, &m, &d) != 0) {
    printf("FAIL %s: %s\n", name, d.msg);
    failures++;
    return NULL;
  }
  return m;
}

static ggi_module *load_text(const char *name, const char *text) {
  where = name;
  ggi_module *m = NULL;
  ggi_diag d;
  if (ggi_load(name, text, strlen(text), &m, &d) != 0) {
    printf("FAIL %s: %s\n", name, d.msg);
    failures++;
    return NULL;
  }
  return m;
}

static const char *load_error(const char *name, const char *text) {
  static ggi_diag d;
  ggi_module *m = NULL;
  where = name;
  if (ggi_load(name, text, strlen(text), &m, &d) == 0) {
    ggi_module_free(m);
    return "(loaded)";
  }
  return d.msg;
}

static const ggi_kernel *kernel(const ggi_module *m, const char *name) {
  for (int i = 0; m && i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, name) == 0) return &m->kernels[i];
  printf("FAIL %s: no kernel %s\n", where, name);
  failures++;
  return NULL;
}

static void examples(const char *dir) {
  ggi_module *m;
  const ggi_kernel *k;

  if ((m = load_file(dir, "saxpy.lua")) && (k = kernel(m, "saxpy"))) {
    CHECK(strcmp(m->name, "saxpy") == 0);
    CHECK(m->targets == (GGI_TARGET_CUDA | GGI_TARGET_HIP));
    CHECK(k->pattern == GG_PATTERN_FOR && k->rank == 1 && strcmp(k->index[0], "i") == 0);
    CHECK(k->nparams == 3 && k->params[0].kind == GG_PARAM_SCALAR && k->params[0].dtype == GG_F32);
    CHECK(k->params[2].access == GG_ACCESS_INOUT && k->params[1].access == GG_ACCESS_IN);
    CHECK(k->nextents == 1 && strcmp(k->extents[0], "n") == 0);
    CHECK(k->line == 2 && k->body_line == 10 && k->params[2].line == 8);
    CHECK(k->block == 0 && k->launch == GG_LAUNCH_CLASSIC);
  }
  ggi_module_free(m);

  if ((m = load_file(dir, "sum1k.lua")) && (k = kernel(m, "sum1k"))) {
    CHECK(k->pattern == GG_PATTERN_REDUCE && k->range[0].name == NULL && k->range[0].value == 1024);
    CHECK(k->nextents == 0 && k->nvalues == 1 && strcmp(k->values[0], "x(i)") == 0);
    CHECK(k->op == GGI_OP_SUM && strcmp(k->into, "out") == 0 && k->acc_type == GG_F32);
    CHECK(k->strategy == GGI_STRAT_AUTO && k->value_line == 10);
  }
  ggi_module_free(m);

  if ((m = load_file(dir, "sum32k.lua")) && (k = kernel(m, "sum32k")))
    CHECK(k->range[0].value == 32768 && k->params[0].ext[0].value == 32768);
  ggi_module_free(m);

  static const struct { const char *file, *name; int n, league; } mm[] = {
    {"matmul32.lua", "matmul32", 32, 1}, {"matmul64.lua", "matmul64", 64, 4},
    {"matmul128.lua", "matmul128", 128, 16}};
  for (int i = 0; i < 3; i++) {
    if ((m = load_file(dir, mm[i].file)) && (k = kernel(m, mm[i].name))) {
      CHECK(k->pattern == GG_PATTERN_TEAM && k->team_size == 1024 && k->league.value == mm[i].league);
      CHECK(k->nscratch == 2 && k->scratch[0].rank == 2 && k->scratch[0].ext[1].value == 32);
      CHECK(k->params[2].ext[0].value == mm[i].n && k->params[2].access == GG_ACCESS_OUT);
      CHECK(k->body_line == 15); /* the long string opens on line 14, its text starts on 15 */
    }
    ggi_module_free(m);
  }

  if ((m = load_file(dir, "inc32k.lua")) && (k = kernel(m, "inc32k")))
    CHECK(k->block == 256 && k->params[0].dtype == GG_I32 && k->range[0].value == 32768);
  ggi_module_free(m);

  if ((m = load_file(dir, "tile_reduce16.lua")) && (k = kernel(m, "tile_reduce16"))) {
    CHECK(k->pattern == GG_PATTERN_TILE_REDUCE && k->tile == 16);
    CHECK(k->nextents == 2 && strcmp(k->extents[0], "n") == 0 && strcmp(k->extents[1], "ntiles") == 0);
  }
  ggi_module_free(m);

  if ((m = load_file(dir, "scan_inclusive.lua")) && (k = kernel(m, "scan_inclusive")))
    CHECK(k->pattern == GG_PATTERN_SCAN && k->scan_kind == GGI_SCAN_INCLUSIVE && strcmp(k->into, "y") == 0);
  ggi_module_free(m);

  if ((m = load_file(dir, "stencil2d_left.lua")) && (k = kernel(m, "stencil2d_left"))) {
    CHECK(k->rank == 2 && k->params[0].layout == GG_LAYOUT_LEFT && k->params[1].layout == GG_LAYOUT_LEFT);
    CHECK(k->nextents == 2 && strcmp(k->extents[1], "m") == 0 && strcmp(k->index[1], "j") == 0);
    CHECK(k->body_line == 12);
  }
  ggi_module_free(m);

  if ((m = load_file(dir, "persistent_three.lua"))) {
    CHECK(m->nkernels == 3 && m->npersistent == 1);
    const ggi_persistent *p = &m->persistent[0];
    CHECK(strcmp(p->name, "loop") == 0 && p->ncommands == 3 && p->buffering == 2);
    CHECK(p->arrangement == GG_PLAYOUT_ONE_BLOCK && p->block == 1024);
    CHECK(p->command_index[0] == 0 && p->command_index[1] == 1 && p->command_index[2] == 2);
    CHECK(strcmp(m->kernels[p->command_index[2]].name, "inc32k") == 0);
  }
  ggi_module_free(m);

  if ((m = load_file(dir, "coop_reduce.lua")) && (k = kernel(m, "coop_reduce")))
    CHECK(k->strategy == GGI_STRAT_GRID_SYNC && k->launch == GG_LAUNCH_COOPERATIVE && k->acc_type == GG_F64);
  ggi_module_free(m);

  if ((m = load_file(dir, "strategies.lua"))) {
    CHECK(m->nkernels == 11);
    if ((k = kernel(m, "sum_grid_sync"))) CHECK(k->launch == GG_LAUNCH_COOPERATIVE);
    if ((k = kernel(m, "max_f32_cas"))) CHECK(k->allow_cas && k->spec.cas_emulation && k->op == GGI_OP_MAX);
    if ((k = kernel(m, "max_i32"))) CHECK(!k->spec.cas_emulation && k->strategy == GGI_STRAT_SHARED_ATOMIC);
    if ((k = kernel(m, "moments"))) CHECK(k->nvalues == 2 && k->acc_type == GG_F64 && k->params[1].ext[0].value == 2);
    if ((k = kernel(m, "absmax"))) CHECK(k->op == GGI_OP_CUSTOM && strcmp(k->identity, "0.0f") == 0);
    for (int s = GGI_STRAT_GLOBAL_ATOMIC; s < GGI_STRAT_COUNT; s++) {
      int found = 0;
      for (int i = 0; i < m->nkernels; i++) found |= m->kernels[i].strategy == (ggi_strategy)s;
      CHECK(found); /* one example of each strategy */
    }
  }
  ggi_module_free(m);
}

static void snippets(void) {
  ggi_module *m;
  const ggi_kernel *k;

  /* Extents: range first, then views in parameter order; static extents
   * that are not powers of two; explicit index names. */
  m = load_text("order.lua",
                "module { name = \"ord\", targets = { \"hip\" } }\n"
                "kernel \"k\" { pattern = \"for\", range = { \"rows\", 1000 }, index = { \"r\", \"c\" },\n"
                "  params = { { \"B\", \"f64[cols][rows]\", layout = \"stride\" }, { \"A\", \"f64[rows][1000]\", space = \"mapped\", access = \"out\" } },\n"
                "  body = 'A(r, c) = 1.0;' }\n");
  if (m && (k = kernel(m, "k"))) {
    CHECK(strcmp(m->name, "ord") == 0 && m->targets == GGI_TARGET_HIP && k->targets == GGI_TARGET_HIP);
    CHECK(k->nextents == 2 && strcmp(k->extents[0], "rows") == 0 && strcmp(k->extents[1], "cols") == 0);
    CHECK(k->range[1].value == 1000 && strcmp(k->index[1], "c") == 0);
    CHECK(k->params[0].layout == GG_LAYOUT_STRIDE && k->params[1].space == GG_SPACE_MAPPED);
    CHECK(k->body_line == 4);
  }
  ggi_module_free(m);

  /* A tile_reduce over a static, non-power-of-two n: ceil(1000 / 16) = 63. */
  m = load_text("tiles.lua",
                "kernel \"t\" { pattern = \"tile_reduce\", tile = 16, range = { 1000 },\n"
                "  params = { { \"x\", \"f32[1000]\" }, { \"o\", \"f32[63]\", access = \"out\" } },\n"
                "  value = \"x(i)\", into = \"o\", op = \"max\" }\n");
  if (m && (k = kernel(m, "t"))) CHECK(k->op == GGI_OP_MAX && k->tile == 16);
  ggi_module_free(m);
  CHECK(strcmp(load_error("tiles64.lua",
                          "kernel \"t\" { pattern = \"tile_reduce\", tile = 16, range = { 1000 },\n"
                          "  params = { { \"x\", \"f32[1000]\" }, { \"o\", \"f32[64]\", access = \"out\" } },\n"
                          "  value = \"x(i)\", into = \"o\" }\n"),
               "tiles64.lua:3: kernel \"t\": field 'into': view \"o\" must have extent [63] = ceil(1000 / tile 16), got [64]") == 0);

  /* Half sums accumulate in f32; an exclusive scan; ring buffering; a
   * value written as a long string starting on the next line. */
  m = load_text("halfsum.lua",
                "kernel \"h\" { pattern = \"scan\", kind = \"exclusive\", range = { \"n\" },\n"
                "  params = { { \"x\", \"f16[n]\" }, { \"y\", \"f16[n]\", access = \"out\" } },\n"
                "  value = [[\n"
                "x(i)]], into = \"y\" }\n"
                "persistent \"p\" { layout = \"hybrid\", blocks = 3, groups = 4, block = 256,\n"
                "  commands = { \"h\" }, buffering = { ring = 5 } }\n");
  if (m && (k = kernel(m, "h"))) {
    CHECK(k->acc_type == GG_F32 && k->scan_kind == GGI_SCAN_EXCLUSIVE && k->value_line == 4);
    CHECK(m->npersistent == 1 && m->persistent[0].buffering == 5 && m->persistent[0].groups == 4);
    CHECK(m->persistent[0].blocks == 3 && m->persistent[0].arrangement == GG_PLAYOUT_HYBRID);
  }
  ggi_module_free(m);

  /* team_size left to gpugen (0 = auto); a run-time league is an extent. */
  m = load_text("teams.lua",
                "kernel \"t\" { pattern = \"team\", league = \"nteams\",\n"
                "  params = { { \"x\", \"f32[n]\", access = \"out\" } }, body = \"x(league_rank) = 0;\" }\n");
  if (m && (k = kernel(m, "t")))
    CHECK(k->team_size == 0 && k->nextents == 2 && strcmp(k->extents[0], "nteams") == 0 && strcmp(k->league.name, "nteams") == 0);
  ggi_module_free(m);

  /* A persistent loop may come before the kernels it runs. */
  m = load_text("later.lua",
                "persistent \"p\" { commands = { \"a\" } }\n"
                "kernel \"a\" { pattern = \"for\", range = { 7 }, params = { { \"x\", \"u64[7]\", access = \"atomic\" } }, body = \"\" }\n");
  if (m) CHECK(m->npersistent == 1 && m->persistent[0].command_index[0] == 0 && m->persistent[0].buffering == 1);
  ggi_module_free(m);

  /* Errors: the line of the offending field, even on a later line, and
   * an unknown field reported first in the file, whatever the hash order. */
  CHECK(strcmp(load_error("lines.lua",
                          "kernel \"k\" {\n  pattern = \"for\",\n  range = { 5 },\n  params = {},\n"
                          "  zeta = 1,\n  alpha = 2,\n  body = \"\" }\n"),
               "lines.lua:5: kernel \"k\": unknown field 'zeta'; allowed: pattern|range|index|params|body|block|items|vector|launch") == 0);
  CHECK(strcmp(load_error("sum.lua", "kernel \"k\" { pattern = \"for\", range = { 5 }, body = \"\" }\nkernel \"k\" {}\n"),
               "sum.lua:2: duplicate name \"k\" (first declared at line 1)") == 0);
  CHECK(strcmp(load_error("my-file.lua", "kernel \"k\" { pattern = \"for\", range = { 5 }, body = \"\" }\n"),
               "my-file.lua:1: module name \"my-file\" (from the file name) is not a name: a letter, then letters, digits and _ (at most 64 characters): set module { name = \"...\" }") == 0);
  CHECK(strcmp(load_error("empty.lua", ""), "empty.lua: no kernel declared: write kernel \"name\" { pattern = ..., ... }") == 0);
  /* NUL bytes in the text are data to Lua, never the end of the file */
  CHECK(strcmp(load_error("nul.lua", "x = 1\0 garbage"), "empty.lua") != 0);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gen_examples EXAMPLES_DIR\n");
    return 2;
  }
  examples(argv[1]);
  snippets();
  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
