/*
 * test_session_keep.c - which sessions leave their mailbox to the next
 * (runtime/mapped_keep.c), on the pretend device of
 * tests/runtime/fake_gpu.h (launched kernels exit before running unless
 * told to hang; the test says when streams end).  No GPU needed.
 *   - a kernel seen to end: its mailbox is kept, not freed, and the next
 *     open takes that same buffer and zeroes it before launching;
 *   - a kernel that may still run (its terminate timed out): its mailbox
 *     is never kept, and is freed only once its stream ends;
 *   - gg_context_free frees what the context keeps.
 */
#include <string.h>

#include "../expect.h"
#include "../runtime/fake_gpu.h"
#include "desc_check.h"
#include "gg_session.h"

int main(void)
{
  gg_context *ctx = fake_context();
  gg_module *mod = NULL;
  EXPECT(ggr_module_load_with(ctx, &gg_module_desc_check, &fake_builder, &mod) == GG_OK,
         "load: %s", gg_error_detail());
  gg_session_options opt = {.open_timeout_ms = 50, .terminate_ms = 5};
  gg_session *s = NULL;

  /* the kernel exits before running: open fails, the kernel has ended */
  int frees = fake.frees;
  gg_status st = gg_session_open(mod, "one", &opt, &s);
  EXPECT(st != GG_OK && !s, "open of a kernel that exits at once fails: %s", gg_strerror(st));
  EXPECT(ctx->nkept == 1, "its ended kernel's mailbox is kept: %d kept", ctx->nkept);
  void *kept = ctx->nkept ? ctx->kept[0].ptr : NULL;
  const size_t bytes = ctx->nkept ? ctx->kept[0].bytes : 0;
  EXPECT(fake.frees == frees + 2, "the device memory is freed, the mailbox not: %d frees",
         fake.frees - frees);
  if (kept) memset(kept, 0xab, bytes); /* what a session left in it */

  st = gg_session_open(mod, "one", &opt, &s);
  EXPECT(st != GG_OK, "the second open fails the same way: %s", gg_strerror(st));
  EXPECT(ctx->nkept == 1 && ctx->kept[0].ptr == kept, "the same buffer was taken and kept again");
  int dirty = 0;
  for (size_t i = 0; kept && i < bytes; i++) dirty |= ((unsigned char *)kept)[i] != 0;
  EXPECT(!dirty, "the open zeroed the reused mailbox before launching");

  /* a kernel that never runs and whose terminate times out may still run:
     its mailbox (the kept one, taken) is put off, never kept */
  fake.hang_launches = 1;
  frees = fake.frees;
  st = gg_session_open(mod, "one", &opt, &s);
  EXPECT(st == GG_ERR_TIMEOUT && !s, "an open whose kernel never runs: %s", gg_strerror(st));
  EXPECT(ctx->nkept == 0, "a mailbox a kernel may still read is not kept: %d kept", ctx->nkept);
  EXPECT(fake.frees == frees, "nor freed while the kernel may run: %d frees", fake.frees - frees);
  fake.hang_launches = 0;
  fake.busy_stream = NULL;
  EXPECT(ggr_device_running(ctx) == 0, "its stream ended: not counted");
  EXPECT(fake.frees == frees + 3, "then its memory, the mailbox with it, is freed: %d frees",
         fake.frees - frees);

  /* what the context keeps goes with it */
  st = gg_session_open(mod, "one", &opt, &s);
  EXPECT(ctx->nkept == 1, "kept again after an ended kernel: %d", ctx->nkept);
  gg_module_free(mod);
  frees = fake.frees;
  gg_context_free(ctx);
  EXPECT(fake.frees == frees + 1, "gg_context_free frees the kept mailbox: %d frees",
         fake.frees - frees);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("session keep: all checks passed\n");
  return failures ? 1 : 0;
}
