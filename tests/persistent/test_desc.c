/*
 * test_desc.c - gg_session_open refuses a persistent descriptor whose
 * figures disagree with its commands (GG_ERR_INVALID, "does not match"),
 * before any device call, so no GPU is needed: the module is the real
 * generated one (desc_check.lua), loaded by hand over a stand-in backend
 * whose first call (set current context) fails.  A descriptor that passes
 * every check reaches that call; one that fails a check never does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "desc_check.h"
#include "gg_session.h"
#include "internal.h"

static int failures, device_calls;

static int fake_set_current(void *ctx, int ordinal)
{
  (void)ctx;
  (void)ordinal;
  device_calls++;
  return 1;
}
static const char *fake_name(int code) { (void)code; return "FAKE_NO_DEVICE"; }

static gg_context ctx;
static ggr_backend be;
static gg_module mod;
static gg_kernel kernels[16];
static gg_module_desc md;
static gg_persistent_desc pds[4];
static gg_persistent_command plans[4][8];

/* A fresh copy of the generated descriptors, with plans that may be edited. */
static void reset(void)
{
  md = gg_module_desc_check;
  for (int i = 0; i < md.npersistent; i++) {
    pds[i] = md.persistent[i];
    memcpy(plans[i], pds[i].plan, sizeof plans[i][0] * (size_t)pds[i].ncommands);
    pds[i].plan = plans[i];
  }
  md.persistent = pds;
  mod.desc = &md;
}

/* want_invalid: refused as a bad descriptor, before any device call. */
static void expect(const char *what, const char *name, int want_invalid)
{
  gg_session *s = NULL;
  device_calls = 0;
  gg_status st = gg_session_open(&mod, name, NULL, &s);
  const char *err = gg_error_detail();
  int ok = want_invalid
             ? st == GG_ERR_INVALID && device_calls == 0 && strstr(err, "does not match")
             : st != GG_OK && st != GG_ERR_INVALID && device_calls == 1 &&
                   strstr(err, "FAKE_NO_DEVICE");
  printf("%s %s: %s (%s)\n", ok ? "ok  " : "FAIL", what, gg_strerror(st), err);
  if (!ok) failures++;
  if (s) gg_session_free(s);
}

int main(void)
{
  be.ctx_set_current = fake_set_current;
  be.err_name = fake_name;
  be.err_string = fake_name;
  ctx.be = &be;
  mod.ctx = &ctx;
  if (gg_module_desc_check.nkernels > 16 || gg_module_desc_check.npersistent > 4) return 1;
  for (int i = 0; i < gg_module_desc_check.nkernels; i++) {
    kernels[i].mod = &mod;
    kernels[i].desc = &gg_module_desc_check.kernels[i];
  }
  mod.kernels = kernels;

  reset();
  expect("hybrid as generated passes every check", "hyb", 0);
  reset();
  expect("one_block as generated passes every check", "one", 0);

  reset(); /* 64 threads per pseudo-block: the team needs 128 */
  pds[0].block_size = 192;
  pds[0].shared_bytes = 3 * pds[0].group_smem;
  expect("a pseudo-block smaller than a team", "hyb", 1);
  reset(); /* 160 threads: above the shared-tree reduce's 128 */
  pds[0].block_size = 480;
  expect("a pseudo-block larger than a command's bound", "hyb", 1);
  reset();
  pds[1].block_size = 96; /* one_block: 96 threads, the reduce planned 128 - still a bound */
  pds[1].plan = plans[1];
  plans[1][1].max_threads = 64;
  expect("a plan bound below the block", "one", 1);
  reset();
  pds[0].shared_bytes += 16;
  expect("shared_bytes not groups x group_smem", "hyb", 1);
  reset();
  pds[0].group_smem = 16; /* less than a command's own shared memory */
  pds[0].shared_bytes = 48;
  expect("a pseudo-block's shared memory below a command's", "hyb", 1);
  reset();
  pds[0].slot_args_size = 12;
  expect("a slot smaller than a command's arguments", "hyb", 1);
  reset();
  plans[0][1].ws_fixed = plans[0][1].ws_per_block = 0;
  expect("no workspace planned for a command that takes one", "hyb", 1);
  reset();
  plans[1][0].ws_fixed = 64;
  expect("a workspace planned for a command without one", "one", 1);
  reset();
  pds[1].groups = 2;
  pds[1].shared_bytes = 2 * pds[1].group_smem;
  expect("groups on a one_block layout", "one", 1);
  reset();
  pds[0].block_size = 385;
  expect("a block that does not split into its groups", "hyb", 1);

  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
