/*
 * test_noargs_gpu.c - frames of a command with no arguments complete.
 * Its argument struct is empty: the plan counts 0 bytes (the host writes
 * one tagged word per slot) and C++ counts 1; a kernel that sized its poll
 * by sizeof waited for a second word the host never writes, and every
 * frame timed out.  1000 frames on one block and on 4 blocks, with one
 * slot and with a ring of 4.  Label gpu; exit 77 without one.
 */
#include <stdio.h>

#include "gg.h"
#include "gg_session.h"
#include "noargs_gpu.h"
#include "../gg_check.h"

static int run(gg_module *mod, const char *pers, int slots)
{
  gg_session *se;
  gg_session_options opt = {.buffering = slots};
  CHECK_OK(gg_session_open(mod, pers, &opt, &se));
  int cmd;
  CHECK_OK(gg_session_command(se, "tick", &cmd));
  for (int f = 0; f < 1000; f++) {
    if (gg_session_started(se) - gg_session_completed(se) == (uint64_t)slots)
      CHECK_OK(gg_session_wait(se, 1000000000ll));
    CHECK_OK(gg_session_start(se, cmd, NULL, 0, NULL));
  }
  while (gg_session_completed(se) < gg_session_started(se))
    CHECK_OK(gg_session_wait(se, 1000000000ll));
  int ok = gg_session_completed(se) == 1000;
  printf("%s: %s, %d slot(s): %llu frames completed\n", ok ? "ok  " : "FAIL", pers, slots,
         (unsigned long long)gg_session_completed(se));
  CHECK_OK(gg_session_terminate(se));
  gg_session_free(se);
  return ok;
}

int main(void)
{
  gg_context *ctx = gg_check_open(NULL);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_noargs_gpu, &mod));
  int ok = 1;
  ok &= run(mod, "one", 1);
  ok &= run(mod, "one", 4);
  ok &= run(mod, "many", 1);
  ok &= run(mod, "many", 4);
  gg_context_free(ctx);
  return ok ? 0 : 1;
}
