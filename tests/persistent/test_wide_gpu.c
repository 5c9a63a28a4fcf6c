/*
 * test_wide_gpu.c - frames of a command whose slot takes three warp-wide
 * reads (wide_gpu.lua: 70 coefficients, an index and a view, 75 tagged
 * words).  Every frame posts new coefficients; its result, the weighted
 * sum 1 c1 + ... + 70 c70 in out(k), is compared with the CPU's (small
 * integers: exact in f32), so a word read from the wrong place, a stale
 * word or a lost frame shows.  1000 frames on one block and on 4 blocks,
 * with one slot and with a ring of 4.  Label gpu; exit 77 without one.
 */
#include <stdio.h>

#include "gg.h"
#include "gg_session.h"
#include "wide_gpu.h"
#include "../gg_check.h"

#define NC 70
#define FRAMES 1000

/* Coefficient j of frame f: a small integer, different for every frame. */
static float coef(int f, int j) { return (float)((f * 7 + j * 3) % 13 - 6); }

static float expected(int f)
{
  float s = 0;
  for (int j = 1; j <= NC; j++) s += (float)j * coef(f, j);
  return s;
}

/* Frame `done` has completed: its result is out(done % 8). */
static int check(const float *out, int done)
{
  float want = expected(done), got = out[done % 8];
  if (got == want) return 1;
  printf("FAIL: frame %d: out(%d) = %g, the CPU gives %g\n", done, done % 8, got, want);
  return 0;
}

static int run(gg_module *mod, gg_array *out, const char *pers, int slots)
{
  gg_session *se;
  gg_session_options opt = {.buffering = slots};
  CHECK_OK(gg_session_open(mod, pers, &opt, &se));
  int cmd;
  CHECK_OK(gg_session_command(se, "wide", &cmd));
  const float *host = gg_array_host(out);
  gg_arg args[NC + 2];
  int ok = 1, done = 0;
  for (int f = 0; f < FRAMES; f++) {
    if (gg_session_started(se) - gg_session_completed(se) == (uint64_t)slots) {
      CHECK_OK(gg_session_wait(se, 1000000000ll));
      ok &= check(host, done++);
    }
    for (int j = 1; j <= NC; j++) args[j - 1] = gg_arg_f32(coef(f, j));
    args[NC] = gg_arg_i32(f % 8);
    args[NC + 1] = gg_arg_array(out);
    CHECK_OK(gg_session_start(se, cmd, args, NC + 2, NULL));
  }
  while (gg_session_completed(se) < gg_session_started(se)) {
    CHECK_OK(gg_session_wait(se, 1000000000ll));
    ok &= check(host, done++);
  }
  ok &= done == FRAMES;
  printf("%s: %s, %d slot(s): %d frames checked\n", ok ? "ok  " : "FAIL", pers, slots, done);
  CHECK_OK(gg_session_terminate(se));
  gg_session_free(se);
  return ok;
}

int main(void)
{
  gg_context *ctx = gg_check_open(NULL);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_wide_gpu, &mod));
  gg_array *out;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 8 * sizeof(float), &out));
  int ok = 1;
  ok &= run(mod, out, "one", 1);
  ok &= run(mod, out, "one", 4);
  ok &= run(mod, out, "many", 1);
  ok &= run(mod, out, "many", 4);
  gg_array_free(out);
  gg_module_free(mod);
  gg_context_free(ctx);
  return ok ? 0 : 1;
}
