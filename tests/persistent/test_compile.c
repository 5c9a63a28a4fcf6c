/*
 * test_compile.c - the persistent kernels of every layout, rendered by
 * ggi_emit_persistent from the real templates, compile with NVRTC for
 * sm_80 and sm_90 (no GPU needed; exit 77 when NVRTC is missing).  Also
 * checks the emitter's refusals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "emit_persistent.h"
#include "plan_by_hand.h"
#include "gg.h"
#include "layouts.h"
#include "source.h"
#include "templates.h"

static int refusals(void)
{
  ggi_kernel k = {.name = "k", .spec = {.block = 256}};
  ggi_persistent p = {.name = "p", .line = 7, .arrangement = GG_PLAYOUT_THREAD_GROUPS,
                      .ncommands = 1, .commands = {"k"}, .command_index = {0},
                      .buffering = 2, .block = 256, .groups = 16};
  ggi_module m = {.name = "m", .file = "m.lua", .nkernels = 1, .kernels = &k,
                  .npersistent = 1, .persistent = &p};
  ggi_persistent_shape s;
  ggi_diag d = {{0}};
  int bad = 0;
  plan_kernels_by_hand(&m, GGI_TARGET_CUDA | GGI_TARGET_HIP, NULL);
  if (ggi_persistent_shape_of(&m, &p, GGI_TARGET_CUDA, &s, &d) == 0 || !strstr(d.msg, "m.lua:7:"))
    bad = fprintf(stderr, "16 groups accepted on CUDA: %s\n", d.msg);
  p.groups = 4;
  if (ggi_persistent_shape_of(&m, &p, GGI_TARGET_HIP, &s, &d) == 0)
    bad = fprintf(stderr, "64-thread pseudo-blocks accepted on HIP\n");
  p.groups = 8;
  if (ggi_persistent_shape_of(&m, &p, GGI_TARGET_HIP, &s, &d) || s.group_threads != 32)
    bad = fprintf(stderr, "8 groups of 32 refused on HIP: %s\n", d.msg);
  p.groups = 3;
  p.block = 0; /* left out: commands' block (256) times groups */
  if (ggi_persistent_shape_of(&m, &p, GGI_TARGET_CUDA, &s, &d) || s.block != 768 ||
      s.group_threads != 256)
    bad = fprintf(stderr, "default block: %d (%s)\n", s.block, d.msg);
  p.command_index[0] = 3;
  if (ggi_persistent_shape_of(&m, &p, GGI_TARGET_CUDA, &s, &d) == 0)
    bad = fprintf(stderr, "a command outside the module accepted\n");
  if (!bad)
    puts("emitter refusals: as expected");
  return bad;
}

/* The HIP loop with hiprtc (gfx90a: 64-lane wavefronts), on a body that
 * needs nothing but the prelude.  0 ok, 77 no hiprtc, 1 failed. */
static int hip_compiles(void)
{
  const char *prelude = NULL;
  for (int i = 0; ggi_templates[i].path; i++)
    if (strcmp(ggi_templates[i].path, "hip/prelude.hip") == 0)
      prelude = ggi_templates[i].text;
  if (!prelude || !gg_arch_supported(GG_BACKEND_HIP, "gfx90a")) {
    printf("hiprtc or its gfx90a target not available: HIP loop not compiled\n");
    return 77;
  }
  ggi_kernel k = {.name = "nop", .spec = {.block = 64}};
  ggi_persistent ps[2] = {
    {.name = "one", .line = 1, .arrangement = GG_PLAYOUT_ONE_BLOCK, .ncommands = 1,
     .commands = {"nop"}, .command_index = {0}, .buffering = 2, .block = 64},
    {.name = "hyb", .line = 2, .arrangement = GG_PLAYOUT_HYBRID, .ncommands = 1,
     .commands = {"nop"}, .command_index = {0}, .buffering = 3, .block = 64, .blocks = 3,
     .groups = 2}};
  ggi_module m = {.name = "h", .file = "h.lua", .nkernels = 1, .kernels = &k,
                  .npersistent = 2, .persistent = ps};
  ggi_buf src = {0};
  ggi_source_shared_headers(&src);
  ggi_buf_puts(&src, prelude);
  ggi_buf_puts(&src, "struct gg_args_nop { int *x; long long n; };\n"
                     "namespace GG_NS_nop { __device__ void gg_body(const gg_args_nop &a, const gg_grid &g)\n"
                     "{ for (long long i = g.block * g.nthreads + g.thread; i < a.n;"
                     " i += (long long)g.nblocks * g.nthreads) a.x[i] += 1; } }\n");
  ggi_diag d = {{0}};
  ggi_persistent_shape shapes[4];
  static const uint32_t nop_bytes[] = {16}; /* struct gg_args_nop above */
  if (plan_by_hand(&m, GGI_TARGET_HIP, nop_bytes, shapes, &d) != 0) {
    fprintf(stderr, "hip plan: %s\n", d.msg);
    return 1;
  }
  for (int i = 0; i < 2; i++)
    if (ggi_emit_persistent(&m, &ps[i], GGI_TARGET_HIP, NULL, &src, &d)) {
      fprintf(stderr, "hip emit: %s\n", d.msg);
      return 1;
    }
  const char *opts[] = {"-std=c++17", NULL};
  gg_compile_result r;
  memset(&r, 0, sizeof r);
  gg_status st = gg_compile(GG_BACKEND_HIP, "gfx90a", "h.hip", src.p, opts, &r);
  ggi_buf_free(&src);
  if (st == GG_ERR_NO_LIBRARY)
    return 77;
  if (st) {
    fprintf(stderr, "hiprtc: %s\n%s\n", gg_strerror(st), r.log ? r.log : "");
    gg_compile_result_free(&r);
    return 1;
  }
  printf("gfx90a: HIP persistent loops compiled, %zu bytes\n", r.binary_size);
  gg_compile_result_free(&r);
  return 0;
}

int main(void)
{
  if (refusals() || hip_compiles() == 1)
    return 1;
  char err[1024];
  const gg_module_desc *md = hm_module(test_layouts, N_TEST_LAYOUTS, err, sizeof err);
  if (!md) {
    fprintf(stderr, "module: %s\n", err);
    return 1;
  }
  const char *archs[] = {"sm_80", "sm_90"};
  for (int i = 0; i < 2; i++) {
    gg_compile_result r;
    memset(&r, 0, sizeof r);
    gg_status st = gg_compile(GG_BACKEND_CUDA, archs[i], "handmade.cu", md->cuda_source,
                              md->cuda_options, &r);
    if (st == GG_ERR_NO_LIBRARY) {
      printf("NVRTC not found: %s\n", gg_error_detail());
      hm_module_free(md);
      return 77;
    }
    if (st != GG_OK) {
      fprintf(stderr, "%s: %s\n%s\n", archs[i], gg_strerror(st), r.log ? r.log : "");
      return 1;
    }
    printf("%s: %d persistent kernels compiled, %zu bytes\n", archs[i], N_TEST_LAYOUTS,
           r.binary_size);
    gg_compile_result_free(&r);
  }
  hm_module_free(md);
  return 0;
}
