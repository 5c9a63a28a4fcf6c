/*
 * test_open_timeout.c - a session whose kernel never gets to run (its
 * blocks wait for SMs another kernel holds) is refused by open within
 * open_timeout_ms, with the reason; its kernel stays counted as running on
 * the device (module loads refused, frees put off) until its stream is
 * seen to end, and then everything put off is freed.  Before, the freed
 * session dropped its stream without handing it to the device, so the
 * device counted the kernel forever: every later module load of the
 * process was refused.
 *
 * The pretend device of tests/runtime/fake_gpu.h: launches succeed, the
 * kernel never writes RUNNING, and the test says when streams end.  The
 * module is the generated one of desc_check.lua.  No GPU needed.
 */
#include <string.h>

#include "../expect.h"
#include "../runtime/fake_gpu.h"
#include "desc_check.h"
#include "gg_session.h"

/* A second module, which must really be loaded (not shared). */
static const gg_kernel_desc kd = {.name = "k", .symbol = "gg_k", .block_size = 32,
                                  .items_per_thread = 1, .grid_rule = GG_GRID_FIXED,
                                  .grid_fixed = 1};
static const gg_module_desc other = {.abi = GG_MODULE_ABI, .name = "other", .cuda_source = "",
                                     .nkernels = 1, .kernels = &kd};

int main(void)
{
  gg_context *ctx = fake_context();
  gg_module *mod = NULL, *later = NULL;
  EXPECT(ggr_module_load_with(ctx, &gg_module_desc_check, &fake_builder, &mod) == GG_OK,
         "load: %s", gg_error_detail());

  /* the kernel is launched, never runs, and its stream never ends */
  fake.hang_launches = 1;
  gg_session_options opt = {.open_timeout_ms = 50, .terminate_ms = 5};
  gg_session *s = NULL;
  int launches = fake.launches, frees = fake.frees;
  uint64_t t0 = gg_rt_now_ns();
  gg_status st = gg_session_open(mod, "one", &opt, &s);
  double ms = (double)(gg_rt_now_ns() - t0) / 1e6;
  EXPECT(st == GG_ERR_TIMEOUT && !s, "open of a kernel that never runs: %s", gg_strerror(st));
  EXPECT(fake.launches == launches + 1, "it was launched");
  EXPECT(ms >= 50 && ms < 5000, "refused after open_timeout_ms (50): %.1f ms", ms);
  EXPECT(strstr(gg_error_detail(), "not running after 50 ms") &&
         strstr(gg_error_detail(), "got no SMs"), "the reason: %s", gg_error_detail());

  /* the refused kernel is still queued: counted, its memory kept */
  EXPECT(ggr_device_running(ctx) == 1, "the queued kernel is counted: %d", ggr_device_running(ctx));
  EXPECT(fake.frees == frees, "its memory is not freed while it may run: %d frees",
         fake.frees - frees);
  st = ggr_module_load_with(ctx, &other, &fake_builder, &later);
  EXPECT(st == GG_ERR_STATE && !later, "a module load meanwhile is refused: %s", gg_strerror(st));

  /* it gets SMs, sees the abort and exits: no longer counted, memory freed */
  fake.hang_launches = 0;
  fake.busy_stream = NULL;
  EXPECT(ggr_device_running(ctx) == 0, "once its stream ends it is not counted: %d",
         ggr_device_running(ctx));
  EXPECT(fake.frees > frees, "and its memory is freed: %d frees", fake.frees - frees);
  EXPECT(ctx->sessions_running == 0, "nor counted on its context: %d", ctx->sessions_running);
  st = ggr_module_load_with(ctx, &other, &fake_builder, &later);
  EXPECT(st == GG_OK, "module loads work again: %s", gg_error_detail());

  gg_module_free(later);
  gg_module_free(mod);
  gg_context_free(ctx);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
