/* gg_module_info_get: whether a module's binary came from the disk cache,
 * whether its load opened the compiler, and the compile time.  CPU only:
 * the fake device of fake_gpu.h with a real disk cache in a fresh folder
 * (the fake build compiles nothing and opens no compiler). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_gpu.h"
#include "../expect.h"

static const gg_kernel_desc kd = {.name = "k", .symbol = "gg_k", .block_size = 32,
                                  .items_per_thread = 1, .grid_rule = GG_GRID_FIXED,
                                  .grid_fixed = 1};

/* Load md in a fresh fake context on the cache folder dir; info of it. */
static void load(const gg_module_desc *md, const char *dir, gg_module_info *info) {
  gg_context *ctx = fake_context();
  ggr_cache_close(ctx->cache);
  if (ggr_cache_open(&ctx->cache, dir, 0, 0)) abort();
  gg_module *mod = NULL;
  memset(info, 0xff, sizeof *info);
  CHECK(ggr_module_load_with(ctx, md, &fake_builder, &mod) == GG_OK);
  CHECK(gg_module_info_get(mod, info) == GG_OK);
  /* a second load of the same descriptor shares the module and its figures */
  gg_module *again = NULL;
  gg_module_info shared;
  CHECK(ggr_module_load_with(ctx, md, &fake_builder, &again) == GG_OK && again == mod);
  CHECK(gg_module_info_get(again, &shared) == GG_OK);
  CHECK(shared.from_disk_cache == info->from_disk_cache);
  gg_context_free(ctx);
}

int main(void) {
  char dir[] = "/tmp/gg_module_info_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  gg_module_desc md;
  memset(&md, 0, sizeof md);
  md.abi = GG_MODULE_ABI;
  md.name = "m";
  md.cuda_source = "";
  md.nkernels = 1;
  md.kernels = &kd;
  gg_module_info info;
  load(&md, dir, &info); /* empty cache: built, then stored */
  CHECK(info.from_disk_cache == 0);
  CHECK(info.opened_compiler == 0);
  CHECK(info.compile_ms == 0);
  load(&md, dir, &info); /* a new context on the same folder: read from disk */
  CHECK(info.from_disk_cache == 1);
  CHECK(info.opened_compiler == 0);
  CHECK(gg_module_info_get(NULL, &info) == GG_ERR_INVALID);
  CHECK(strstr(gg_error_detail(), "gg_module_info_get"));
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("module info: all checks passed\n");
  return failures ? 1 : 0;
}
