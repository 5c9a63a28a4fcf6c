/* docs/examples/gain_host.c: the typed C API of docs/examples/gain.lua.
 * Build: gpugen_add_module(gain_host docs/examples/gain.lua). */
#include <stdio.h>
#include "gain.h"                 /* gpugen emit gain.lua: typed launchers, starters, ids */

#define TRY(call) do { gg_status st_ = (call); if (st_) { \
    fprintf(stderr, "%s: %s\n", #call, gg_strerror(st_)); return 1; } } while (0)

int main(void)
{
  enum { N = 1000 };
  float host[N], sum = 0;
  gg_context *ctx;
  gg_module *mod;
  gg_kernel *k;
  gg_array *x, *out;
  gg_session *s;
  for (int i = 0; i < N; i++) host[i] = (float)(i % 7);
  gg_status st = gg_context_open(&ctx, NULL);
  if (st == GG_ERR_NO_LIBRARY || st == GG_ERR_NO_DEVICE) return 77;   /* no GPU here */
  TRY(st);
  TRY(gg_module_load(ctx, &gg_module_gain, &mod));
  TRY(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof host, &x));
  TRY(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float), &out));
  TRY(gg_copy_from_host(x, 0, host, sizeof host, NULL));

  /* A typed launcher: C types, checked by the compiler; k is an f16
   * scalar taken as a float.  Kernel "gain" is named like its module,
   * so it is gg_gain_launch, not gg_gain_launch_gain. */
  TRY(gg_kernel_get(mod, "gain", &k));
  TRY(gg_gain_launch(k, NULL, 2.0f, x, N));          /* x = 2 x */
  TRY(gg_device_sync(ctx));

  /* A session of persistent kernel "loop": typed starters take the
   * command's id in it, GG_<MODULE>_<PERSISTENT>_CMD_<COMMAND>. */
  TRY(gg_session_open(mod, "loop", NULL, &s));
  TRY(gg_gain_start(s, GG_GAIN_LOOP_CMD_GAIN, NULL, 0.5f, x, N));         /* x = x / 2 */
  TRY(gg_session_wait(s, 1000000000));
  TRY(gg_gain_start_step(s, GG_GAIN_LOOP_CMD_STEP, NULL, 3.0f, x, out, N)); /* x = 3 x; out = sum */
  TRY(gg_session_wait(s, 1000000000));
  TRY(gg_session_terminate(s));
  gg_session_free(s);

  TRY(gg_copy_to_host(&sum, out, 0, sizeof sum, NULL));
  float want = 0;
  for (int i = 0; i < N; i++) want += 3.0f * host[i];
  printf("sum %g (want %g)\n", sum, want);
  gg_array_free(x);
  gg_array_free(out);
  gg_module_free(mod);
  gg_context_free(ctx);
  return sum == want ? 0 : 1;
}
