/*
 * test_module_options.c - a module's compile options on a context
 * (runtime/module.c, ggr_module_options): the descriptor's own, then for
 * CUDA one -DGG_MIN_BLOCKS_<symbol>=N for each persistent kernel whose
 * requested blocks need N > 1 of them on an SM of the context (the
 * __launch_bounds__ minimum of templates/cuda/persistent.cuh).  Blocks
 * that are no multiple of the SMs round up; "all co-resident" (0) and
 * HIP say nothing; a symbol that is no C identifier is refused.  No GPU:
 * the pretend device of fake_gpu.h.
 */
#include <stdio.h>
#include <string.h>

#include "../expect.h"
#include "fake_gpu.h"

static const char *const cuda_opts[] = {"-std=c++17", "-default-device", NULL};
static const char *const hip_opts[] = {"-std=c++17", NULL};

/* the options' text after the descriptor's, joined by spaces */
static void defines(const ggr_options *o, char *buf, size_t n)
{
  buf[0] = 0;
  for (int i = o->nbase; i < o->n; i++)
    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i > o->nbase ? " " : "", o->list[i]);
}

int main(void)
{
  gg_context *ctx = fake_context();
  ctx->sm_count = 132;
#define P(n, lay, b, bl) {.name = #n, .symbol = "gg_persist_" #n, .layout = GG_PLAYOUT_##lay, .block_size = b, .blocks = bl}
  gg_persistent_desc pd[] = {
      P(one, ONE_BLOCK, 256, 0),        /* one block: nothing */
      P(groups, THREAD_GROUPS, 128, 0), /* one block: nothing */
      P(all, MANY_BLOCKS, 256, 0),      /* 512 threads an SM: 2 */
      P(big, MANY_BLOCKS, 1024, 0),     /* 1 already: nothing */
      P(tiny, MANY_BLOCKS, 32, 0),      /* 16 */
      P(few, MANY_BLOCKS, 256, 16),     /* 2 (16 blocks need 1) */
      P(four, MANY_BLOCKS, 256, 528),   /* 528 over 132 SMs: 4 */
      P(odd, HYBRID, 512, 661),         /* 661 over 132: 6 (rounded up) */
      P(hyb, HYBRID, 512, 8),           /* 1: nothing */
  };
#undef P
  gg_module_desc d = {.name = "m", .cuda_options = cuda_opts, .hip_options = hip_opts,
                      .npersistent = 9, .persistent = pd};
  ggr_options o;
  char got[1024];

  EXPECT(ggr_module_options(ctx, &d, &o) == GG_OK, "cuda options: %s", gg_error_detail());
  EXPECT(o.nbase == 2 && strcmp(o.list[0], "-std=c++17") == 0 && strcmp(o.list[1], "-default-device") == 0,
         "the descriptor's options come first, as they are");
  EXPECT(o.list[o.n] == NULL, "the list ends in NULL");
  defines(&o, got, sizeof got);
  EXPECT(strcmp(got, "-DGG_MIN_BLOCKS_gg_persist_all=2 -DGG_MIN_BLOCKS_gg_persist_tiny=16 "
                     "-DGG_MIN_BLOCKS_gg_persist_few=2 -DGG_MIN_BLOCKS_gg_persist_four=4 "
                     "-DGG_MIN_BLOCKS_gg_persist_odd=6") == 0, "132 SMs: got '%s'", got);
  ggr_module_options_free(&o);

  /* the same module on a smaller device (or an SM partition) needs more an SM */
  ctx->sm_count = 16;
  EXPECT(ggr_module_options(ctx, &d, &o) == GG_OK, "16 SMs");
  defines(&o, got, sizeof got);
  EXPECT(strcmp(got, "-DGG_MIN_BLOCKS_gg_persist_all=2 -DGG_MIN_BLOCKS_gg_persist_tiny=16 "
                     "-DGG_MIN_BLOCKS_gg_persist_few=2 -DGG_MIN_BLOCKS_gg_persist_four=33 "
                     "-DGG_MIN_BLOCKS_gg_persist_odd=42") == 0, "16 SMs: got '%s'", got);
  ggr_module_options_free(&o);

  /* HIP: its __launch_bounds__ has no such minimum; the descriptor's options only */
  ctx->be->kind = GG_BACKEND_HIP;
  EXPECT(ggr_module_options(ctx, &d, &o) == GG_OK, "hip");
  EXPECT(o.n == 1 && o.nbase == 1 && strcmp(o.list[0], "-std=c++17") == 0 && !o.list[1], "hip: %d options", o.n);
  ggr_module_options_free(&o);
  ctx->be->kind = GG_BACKEND_CUDA;

  /* a symbol that could smuggle another option in is refused */
  pd[6].symbol = "gg_x=1 -DOTHER";
  EXPECT(ggr_module_options(ctx, &d, &o) == GG_ERR_INVALID && o.list == NULL, "hostile symbol");
  EXPECT(strstr(gg_error_detail(), "not a C identifier") != NULL, "message: %s", gg_error_detail());
  pd[6].symbol = NULL;
  EXPECT(ggr_module_options(ctx, &d, &o) == GG_ERR_INVALID, "no symbol");

  gg_context_free(ctx);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
